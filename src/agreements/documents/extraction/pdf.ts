/**
 * PDF text layer: text fragments grouped into lines by their baseline, lines into paragraphs
 * by the vertical gaps between them, one page at a time so limits can stop between pages.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { layoutLines, type PositionedText } from '../../../shared/layout/pdf-layout.js';
import { hasEndOfFileMarker, openPdf } from '../../../shared/pdfjs.js';
import { TimeLimitExceeded, withTimeLimit, type Deadline, type ExtractionLimits } from './limits.js';
import { ExtractionError } from '../../../documents/extraction-model.js';
import type { DocumentTextBuilder } from './passages.js';

/** Fragments whose baselines differ by less than this share of the font size are one line. */
const SAME_LINE_TOLERANCE = 0.45;
/** A baseline gap wider than this many font sizes is a blank line: a new paragraph. */
const PARAGRAPH_GAP = 1.7;

export interface PdfReadResult {
  pageCount: number;
}

export async function extractPdf(
  bytes: Uint8Array,
  builder: DocumentTextBuilder,
  limits: ExtractionLimits,
  deadline: Deadline,
): Promise<PdfReadResult> {
  if (!hasEndOfFileMarker(bytes)) {
    throw new ExtractionError(
      'unreadable',
      'The PDF has no %%EOF marker at its end; the file is truncated or damaged. Upload it again.',
    );
  }
  const task = await openPdf(bytes);
  try {
    const document = await withTimeLimit(task.promise, deadline.remainingMs());
    await readPages(document, builder, limits, deadline);
    return { pageCount: document.numPages };
  } catch (error) {
    throw toExtractionError(error);
  } finally {
    // Also after a time-out: destroying the task stops pdf.js's work on the abandoned page.
    await task.destroy().catch(() => undefined);
  }
}

async function readPages(
  document: PDFDocumentProxy,
  builder: DocumentTextBuilder,
  limits: ExtractionLimits,
  deadline: Deadline,
): Promise<void> {
  const lastPage = Math.min(document.numPages, limits.maxPdfPages);
  for (let pageNumber = 1; pageNumber <= lastPage; pageNumber += 1) {
    // Checked before each page, not only raced against it: a fast page must not win over a
    // deadline already past.
    if (deadline.expired()) return builder.markTruncated();
    const paragraphs = await withTimeLimit(readPageParagraphs(document, pageNumber), deadline.remainingMs()).catch(
      rethrowUnlessTimeLimit,
    );
    if (paragraphs === null) return builder.markTruncated();
    for (const paragraph of paragraphs) {
      if (!builder.add({ text: paragraph, page: pageNumber, sheet: null })) return;
    }
  }
  if (document.numPages > lastPage) builder.markTruncated();
}

async function readPageParagraphs(document: PDFDocumentProxy, pageNumber: number): Promise<string[]> {
  const page = await document.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    return paragraphsFromFragments(content.items.map(toPositionedText).filter((item) => item !== null));
  } finally {
    page.cleanup();
  }
}

/** A page that runs out of time ends the text there (null) rather than failing the document. */
function rethrowUnlessTimeLimit(error: unknown): null {
  if (error instanceof TimeLimitExceeded) return null;
  throw error;
}

interface Line {
  text: string;
  y: number;
  fontSize: number;
}

/** Lines top to bottom; a paragraph ends where the gap to the next line is a blank line or more. */
export function paragraphsFromFragments(fragments: readonly PositionedText[]): string[] {
  const paragraphs: string[][] = [];
  let previous: Line | undefined;
  for (const line of groupLines(fragments)) {
    const gap = previous ? previous.y - line.y : 0;
    const startsParagraph =
      !previous || gap <= 0 || gap > PARAGRAPH_GAP * Math.max(previous.fontSize, line.fontSize, 1);
    if (startsParagraph) paragraphs.push([line.text]);
    else paragraphs.at(-1)!.push(line.text);
    previous = line;
  }
  return paragraphs.map((lines) => lines.join('\n'));
}

/** Fragments on one baseline form a line; the shared layoutLines joins them. */
function groupLines(fragments: readonly PositionedText[]): Line[] {
  const visible = fragments.filter((fragment) => fragment.text.trim() !== '');
  const rows: PositionedText[][] = [];
  for (const fragment of [...visible].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const anchor = rows.at(-1)?.[0];
    if (anchor && Math.abs(anchor.y - fragment.y) <= SAME_LINE_TOLERANCE * Math.max(anchor.fontSize, 1))
      rows.at(-1)!.push(fragment);
    else rows.push([fragment]);
  }
  return rows.map((row) => ({
    text: layoutLines(row).join(' '),
    y: row[0]!.y,
    fontSize: Math.max(...row.map((fragment) => fragment.fontSize)),
  }));
}

function toPositionedText(item: unknown): PositionedText | null {
  const candidate = item as { str?: unknown; transform?: unknown; width?: unknown } | null;
  if (typeof candidate?.str !== 'string' || !Array.isArray(candidate.transform)) return null;
  const [a, b, c, d, x, y] = candidate.transform as number[];
  const fontSize = Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0);
  return {
    text: candidate.str,
    x: x ?? 0,
    y: y ?? 0,
    width: typeof candidate.width === 'number' ? candidate.width : 0,
    fontSize,
  };
}

function toExtractionError(error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  if (error instanceof TimeLimitExceeded)
    return new ExtractionError(
      'unreadable',
      `Opening the PDF took longer than the time limit of ${Math.round(error.milliseconds / 1000)} s.`,
    );
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException')
    return new ExtractionError('encrypted', 'The PDF is password protected; upload it without a password.');
  const message = error instanceof Error ? error.message : String(error);
  return new ExtractionError('unreadable', `The PDF could not be read: ${message.slice(0, 200)}`);
}
