// The one place the claims route takes the letter's builder and renderers from.
export { renderClaimPdf } from './render-pdf.js';
export { renderClaimCsv, renderClaimXlsx } from './render-table.js';
export { buildClaimLetter, type LetterOptions } from './build.js';
export type { ClaimLetter } from './letter.js';
