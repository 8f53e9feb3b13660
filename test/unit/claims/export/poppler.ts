import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Reads a rendered PDF the way a person and a machine would: poppler's pdftoppm draws the pages
// as PNG, pdftotext extracts the text (and each word's box), pdffonts lists the embedded fonts.
// Poppler is installed by scripts/install-deps --tests (Debian package poppler-utils).

const execFileAsync = promisify(execFile);

async function run(command: string, args: string[], options: { maxBuffer?: number } = {}): Promise<{ stdout: string }> {
  try {
    return await execFileAsync(command, args, { maxBuffer: options.maxBuffer ?? 16 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `${command} is not installed: install poppler-utils (bash scripts/install-deps --tests, or apt-get install -y poppler-utils)`,
        { cause: error },
      );
    }
    throw error;
  }
}

export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface ReadPdf {
  pages: number;
  /** The text of each page (index 0 = page 1), whitespace collapsed. */
  pageText: string[];
  /** The whole document laid out as printed (columns kept on their lines). */
  layoutText: string;
  words: Word[];
  pageSize: { width: number; height: number };
  fonts: string;
  /** pdfinfo's report: title, author, dates, page size. */
  info: string;
  /** The PNG files of the pages, in order. */
  pngs: Buffer[];
}

export async function readPdf(pdf: Buffer, options: { png?: boolean } = {}): Promise<ReadPdf> {
  const dir = await mkdtemp(join(tmpdir(), 'claim-letter-'));
  try {
    const file = join(dir, 'letter.pdf');
    await writeFile(file, pdf);
    const [{ stdout: bbox }, { stdout: layoutText }, { stdout: fonts }, { stdout: info }] = await Promise.all([
      run('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 * 1024 * 1024 }),
      run('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 }),
      run('pdffonts', [file]),
      run('pdfinfo', ['-isodates', file]),
    ]);
    const { words, pageSize, pages } = parseBbox(bbox);
    const pageText = Array.from({ length: pages }, (_, index) =>
      words
        .filter((word) => word.page === index + 1)
        .map((word) => word.text)
        .join(' '),
    );
    let pngs: Buffer[] = [];
    if (options.png) {
      await run('pdftoppm', ['-r', '50', '-png', file, join(dir, 'page')]);
      const files = (await readdir(dir)).filter((name) => name.startsWith('page') && name.endsWith('.png')).sort();
      pngs = await Promise.all(files.map((name) => readFile(join(dir, name))));
    }
    return { pages, pageText, layoutText, words, pageSize, fonts, info, pngs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** pdftotext -bbox writes XHTML: <page width= height=> with <word xMin= yMin= xMax= yMax=>text</word>. */
function parseBbox(xhtml: string): { words: Word[]; pageSize: { width: number; height: number }; pages: number } {
  const words: Word[] = [];
  let page = 0;
  let pageSize = { width: 0, height: 0 };
  for (const chunk of xhtml.split('<')) {
    if (chunk.startsWith('page ')) {
      page += 1;
      pageSize = { width: attribute(chunk, 'width'), height: attribute(chunk, 'height') };
    } else if (chunk.startsWith('word ')) {
      const text = decodeEntities(chunk.slice(chunk.indexOf('>') + 1));
      words.push({
        page,
        text,
        xMin: attribute(chunk, 'xMin'),
        yMin: attribute(chunk, 'yMin'),
        xMax: attribute(chunk, 'xMax'),
        yMax: attribute(chunk, 'yMax'),
      });
    }
  }
  return { words, pageSize, pages: page };
}

function attribute(tag: string, name: string): number {
  const start = tag.indexOf(`${name}="`) + name.length + 2;
  return Number(tag.slice(start, tag.indexOf('"', start)));
}

function decodeEntities(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}
