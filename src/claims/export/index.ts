// The one place the claims route takes its renderers from. Until the renderers' branch is merged
// this points at render-stub.ts; on merge it becomes:
//   export { renderClaimPdf } from './render-pdf.js';
//   export { renderClaimCsv, renderClaimXlsx } from './render-table.js';
export { renderClaimCsv, renderClaimPdf, renderClaimXlsx } from './render-stub.js';
export { buildClaimLetter, type LetterOptions } from './build.js';
export type { ClaimLetter } from './letter.js';
