import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

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

// Each font file is parsed once per process and shared by every letter: given a path, pdfkit
// parses the file again for each document, which was about half of a letter's rendering time
// (docs/benchmarks.md, session 22). A document embeds its own subset of the glyphs it uses; the
// parsed font only caches what it has read of the file.
const parsedFonts = new Map<string, Font>();

export function parsedLetterFont(font: (typeof LETTER_FONTS)[LetterFont]): Font {
  let parsed = parsedFonts.get(font.path);
  if (!parsed) {
    const created = create(readFileSync(font.path));
    if (!('layout' in created)) throw new Error(`${font.path} is a font collection, not a font`);
    parsed = created;
    parsedFonts.set(font.path, parsed);
  }
  return parsed;
}
