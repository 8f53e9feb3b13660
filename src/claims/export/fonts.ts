import { createRequire } from 'node:module';

// The letter embeds DejaVu Sans from the `dejavu-fonts-ttf` package, never a system font: the same
// bytes on every machine, and it prints Nordic and German letters (ÆØÅ æøå ÄÖÜ äöüß), dashes and
// typographic quotes that PDF's built-in Helvetica cannot.

const require = createRequire(import.meta.url);

function fontFile(name: string): string {
  return require.resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`);
}

export const LETTER_FONTS = {
  regular: { name: 'DejaVuSans', path: fontFile('DejaVuSans') },
  bold: { name: 'DejaVuSans-Bold', path: fontFile('DejaVuSans-Bold') },
  // The table is set condensed so seven columns fit a portrait page without cramped wrapping.
  condensed: { name: 'DejaVuSansCondensed', path: fontFile('DejaVuSansCondensed') },
  condensedBold: { name: 'DejaVuSansCondensed-Bold', path: fontFile('DejaVuSansCondensed-Bold') },
} as const;

export type LetterFont = keyof typeof LETTER_FONTS;
