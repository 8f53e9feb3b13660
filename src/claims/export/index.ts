// The one place the claims route takes the letter's builder and renderers from.
export { renderClaimPdf } from './render-pdf.js';
export { claimPdfOf } from './pdf-cache.js';
export { renderClaimCsv, renderClaimXlsx, streamClaimCsv, streamClaimXlsx } from './render-table.js';
export { buildClaimLetter, TooManyLetterLines, type LetterOptions } from './build.js';
export type { ClaimLetter } from './letter.js';
