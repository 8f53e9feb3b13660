// Generates the scan corpus for `npm run bench:ocr`: invoices of the extraction corpus
// (test/fixtures/extraction-corpus, made by generate-extraction-corpus.ts) printed and scanned
// again, as a scanner would give them: rasterised at 150-200 dpi, slightly rotated (0.5-2°,
// either way), with paper tint, sensor noise and specks, some in grayscale and some thresholded
// to black and white, each page one image in an image-only PDF (no text layer). The ground truth
// is the source invoice's, copied beside each scan with how it was scanned. Deterministic.
//
//   npx tsx scripts/corpus/generate-scan-corpus.ts [source-dir] [out-dir]
//
// Needs poppler-utils (pdfinfo, pdftoppm), which scripts/install-deps installs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { parsePgm, rotate, type GrayImage } from '../../src/invoices/parsing/ocr/raster.js';
import { seededRandom as random } from '../bench/seeded-random.js';

const root = path.resolve(import.meta.dirname, '../..');
const SOURCE = process.argv[2] ?? path.join(root, 'test/fixtures/extraction-corpus');
const OUT = process.argv[3] ?? path.join(root, 'test/fixtures/scan-corpus');

/** Twenty invoices: every layout family, all eight languages, a two-page one, credit notes. */
const SOURCES = [
  '001-classic-en',
  '002-classic-no',
  '006-classic-de',
  '009-captions-sv',
  '011-captions-fi',
  '015-vatBeside-de',
  '018-vatBeside-no',
  '021-metaTable-en',
  '023-metaTable-nl',
  '027-reordered-fr',
  '030-reordered-nl',
  '032-multiPage-de',
  '037-wrapped-en',
  '040-wrapped-da',
  '044-senderLine-sv',
  '047-american-en',
  '051-compact-fr',
  '057-swiss-de',
  '059-creditNote-no',
  '062-creditNote-en',
];

export interface ScanSettings {
  dpi: number;
  /** Lines descend to the right by this many degrees (negative: they rise). */
  rotation: number;
  /** Gray level of the paper. */
  paper: number;
  /** Standard deviation of the sensor noise, gray levels. */
  noise: number;
  /** Share of the page's pixels that start a speck. */
  specks: number;
  /** Black and white (thresholded) rather than grayscale. */
  bilevel: boolean;
}

export function settingsFor(index: number): ScanSettings {
  const rnd = random(7_000 + index * 131);
  const magnitude = 0.5 + rnd() * 1.5;
  return {
    dpi: [150, 175, 200][index % 3] as number,
    rotation: Math.round((rnd() < 0.5 ? -magnitude : magnitude) * 100) / 100,
    paper: 236 + Math.floor(rnd() * 16),
    noise: 4 + Math.round(rnd() * 8),
    specks: 0.0002 + rnd() * 0.0008,
    bilevel: index % 4 === 1,
  };
}

/** Scans every page of the PDF with these settings: one PNG per page. */
export function scanPages(
  pdf: string,
  settings: ScanSettings,
  seed: number,
): { png: Buffer; widthPt: number; heightPt: number }[] {
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)/mu.exec(info)?.[1] ?? 1);
  const rnd = random(seed);
  const scanned: { png: Buffer; widthPt: number; heightPt: number }[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const size = /^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/mu.exec(
      execFileSync('pdfinfo', ['-f', String(page), '-l', String(page), pdf], { encoding: 'utf8' }),
    );
    const pgm = execFileSync(
      'pdftoppm',
      ['-r', String(settings.dpi), '-gray', '-f', String(page), '-l', String(page), '-singlefile', pdf],
      { maxBuffer: 256 * 2 ** 20 },
    );
    // rotate() straightens lines at an angle; the opposite angle tilts straight ones.
    const image = degrade(rotate(parsePgm(pgm), -settings.rotation), settings, rnd);
    scanned.push({
      png: encodePng(image, settings.bilevel),
      widthPt: Number(size?.[1] ?? 595),
      heightPt: Number(size?.[2] ?? 842),
    });
  }
  return scanned;
}

/** Paper tint, Gaussian sensor noise, dark specks and light dropouts; thresholded when bilevel. */
function degrade(image: GrayImage, settings: ScanSettings, rnd: () => number): GrayImage {
  const { width, height } = image;
  const pixels = new Uint8Array(image.pixels);
  const gaussian = () => Math.sqrt(-2 * Math.log(rnd() || 1e-12)) * Math.cos(2 * Math.PI * rnd());
  for (let index = 0; index < pixels.length; index += 1) {
    const ink = 255 - (pixels[index] as number);
    const value = settings.paper - (ink * (settings.paper - 20)) / 255 + gaussian() * settings.noise;
    pixels[index] = Math.max(0, Math.min(255, Math.round(value)));
  }
  const specks = Math.round(width * height * settings.specks);
  for (let speck = 0; speck < specks; speck += 1) {
    const x = Math.floor(rnd() * (width - 3));
    const y = Math.floor(rnd() * (height - 3));
    const dark = rnd() < 0.8;
    const size = 1 + Math.floor(rnd() * 2);
    for (let dy = 0; dy < size; dy += 1)
      for (let dx = 0; dx < size; dx += 1)
        pixels[(y + dy) * width + x + dx] = dark ? 30 + Math.floor(rnd() * 60) : settings.paper;
  }
  if (settings.bilevel) {
    for (let index = 0; index < pixels.length; index += 1) pixels[index] = (pixels[index] as number) < 150 ? 0 : 255;
  } else {
    // The scanner's background removal: paper (and most of its noise) becomes white, the noise on
    // and around the print stays, as in the grayscale files office scanners write.
    const white = settings.paper - 1.5 * settings.noise;
    for (let index = 0; index < pixels.length; index += 1)
      pixels[index] = Math.max(0, Math.min(255, Math.round((((pixels[index] as number) - 25) * 255) / (white - 25))));
  }
  return { width, height, pixels };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A grayscale PNG, 8 bits per pixel, or 1 bit when the image is black and white. */
function encodePng(image: GrayImage, bilevel: boolean): Buffer {
  const { width, height, pixels } = image;
  const rowBytes = bilevel ? Math.ceil(width / 8) : width;
  const raw = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const offset = y * (rowBytes + 1);
    raw[offset] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const value = pixels[y * width + x] as number;
      if (!bilevel) raw[offset + 1 + x] = value;
      else if (value >= 128) raw[offset + 1 + (x >> 3)] = (raw[offset + 1 + (x >> 3)] as number) | (0x80 >> (x & 7));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bilevel ? 1 : 8;
  header[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An image-only PDF: each page one picture of the page, nothing else. */
export async function imagePdf(pages: readonly { png: Buffer; widthPt: number; heightPt: number }[]): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    info: { Producer: 'scan corpus', Creator: 'scan corpus', CreationDate: new Date(Date.UTC(2025, 0, 1)) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (data: Buffer) => chunks.push(data));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const page of pages) {
    doc.addPage({ size: [page.widthPt, page.heightPt], margin: 0 });
    doc.image(page.png, 0, 0, { width: page.widthPt, height: page.heightPt });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** One scan of a text-layer PDF invoice, as bytes of an image-only PDF. */
export async function scanPdf(pdf: string, settings: ScanSettings, seed: number): Promise<Buffer> {
  return imagePdf(scanPages(pdf, settings, seed));
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  for (const [index, id] of SOURCES.entries()) {
    const settings = settingsFor(index);
    const source = path.join(SOURCE, `${id}.pdf`);
    const bytes = await scanPdf(source, settings, 90_000 + index);
    const name = `${String(index + 1).padStart(3, '0')}-scan-${id.replace(/^\d+-/u, '')}`;
    writeFileSync(path.join(OUT, `${name}.pdf`), bytes);
    const truth = JSON.parse(readFileSync(path.join(SOURCE, `${id}.json`), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      path.join(OUT, `${name}.json`),
      `${JSON.stringify({ ...truth, scan: { source: `${id}.pdf`, ...settings, specks: Math.round(settings.specks * 1e6) / 1e6 } }, null, 2)}\n`,
    );
    console.log(
      `${name}.pdf  ${(bytes.length / 1024).toFixed(0)} KiB  ${settings.dpi} dpi  ${settings.rotation}°  noise ${settings.noise}${settings.bilevel ? '  black and white' : ''}`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
