/**
 * PDF price lists: the words of the text layer, positioned as the invoice layout reader gets
 * them (pdf.js text items -> `Word`), then the price table (word-table.ts). A scanned PDF has no
 * words; OCR words in the same `Word` shape go straight to `tableFromWords`
 * (`readPriceListWords` in index.ts).
 */
import { wordsOfPdf } from '../../../shared/layout/pdf-words.js';
import type { Word } from '../../../shared/layout/words.js';
import { openPdf } from '../../../shared/pdfjs.js';
import type { PriceListFailure } from '../model.js';

/** A price appendix is a few dozen pages; a catalogue of more is not read past this. */
export const MAX_PDF_PAGES = 200;

export type PdfWords = { ok: true; words: Word[]; pageCount: number } | { ok: false; failure: PriceListFailure };

export async function pdfWords(bytes: Uint8Array): Promise<PdfWords> {
  const task = await openPdf(bytes);
  try {
    const document = await task.promise;
    return { ok: true, words: await wordsOfPdf(document, MAX_PDF_PAGES), pageCount: document.numPages };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException')
      return { ok: false, failure: { code: 'unreadable', message: 'the PDF is password protected' } };
    return {
      ok: false,
      failure: { code: 'unreadable', message: 'the PDF could not be read: it may be damaged, or not a PDF' },
    };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
