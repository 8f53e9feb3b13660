/**
 * PDF price lists: the words of the text layer, positioned as the invoice layout reader gets
 * them (pdf.js text items -> `Word`), then the price table (word-table.ts). A scanned PDF has no
 * words; OCR words in the same `Word` shape go straight to `tableFromWords`
 * (`readPriceListWords` in index.ts).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { wordsFromTextItems, type TextItemLike, type Word } from '../../../invoices/parsing/layout/words.js';
import { openPdf } from '../../../shared/pdfjs.js';
import type { PriceListFailure } from '../model.js';

/** A price appendix is a few dozen pages; a catalogue of more is not read past this. */
export const MAX_PDF_PAGES = 200;

export type PdfWords = { ok: true; words: Word[]; pageCount: number } | { ok: false; failure: PriceListFailure };

export async function pdfWords(bytes: Uint8Array): Promise<PdfWords> {
  const task = await openPdf(bytes);
  try {
    const document = await task.promise;
    return { ok: true, words: await wordsOf(document), pageCount: document.numPages };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') return { ok: false, failure: { code: 'unreadable', message: 'the PDF is password protected' } };
    return { ok: false, failure: { code: 'unreadable', message: `the PDF could not be read: ${error instanceof Error ? error.message : String(error)}` } };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

async function wordsOf(document: PDFDocumentProxy): Promise<Word[]> {
  const words: Word[] = [];
  for (let pageNumber = 1; pageNumber <= Math.min(document.numPages, MAX_PDF_PAGES); pageNumber += 1) {
    const page = await document.getPage(pageNumber);
    const content = await page.getTextContent();
    const [, , , top = 842] = page.view;
    words.push(...wordsFromTextItems((content.items as unknown[]).filter(isTextItem), pageNumber, top));
    page.cleanup();
  }
  return words;
}

function isTextItem(item: unknown): item is TextItemLike {
  const candidate = item as { str?: unknown; transform?: unknown; width?: unknown } | null;
  return typeof candidate?.str === 'string' && Array.isArray(candidate.transform) && typeof candidate.width === 'number';
}
