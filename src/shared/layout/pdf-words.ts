import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { wordsFromTextItems, type TextItemLike, type Word } from './words.js';

/**
 * The words of a PDF's first `maxPages` pages, positioned from the top left of their page; each
 * page's size (its view box, in the words' units) goes into `sizes` when given.
 */
export async function wordsOfPdf(
  document: PDFDocumentProxy,
  maxPages: number,
  sizes?: Map<number, { width: number; height: number; left: number }>,
): Promise<Word[]> {
  const words: Word[] = [];
  const pageCount = Math.min(document.numPages, maxPages);
  for (let pageNumber = 1; pageNumber <= pageCount; pageNumber += 1) {
    const page = await document.getPage(pageNumber);
    const content = await page.getTextContent();
    const [left = 0, bottom = 0, right = 595, top = 842] = page.view;
    sizes?.set(pageNumber, { width: right - left, height: top - bottom, left });
    words.push(...wordsFromTextItems((content.items as unknown[]).filter(isTextItem), pageNumber, top));
    page.cleanup();
  }
  return words;
}

function isTextItem(item: unknown): item is TextItemLike {
  const candidate = item as { str?: unknown; transform?: unknown; width?: unknown } | null;
  return (
    typeof candidate?.str === 'string' && Array.isArray(candidate.transform) && typeof candidate.width === 'number'
  );
}
