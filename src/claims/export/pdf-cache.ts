import { createHash } from 'node:crypto';
import { ByteCache } from '../../shared/byte-cache.js';
import type { ClaimLetter } from './letter.js';
import { renderClaimPdf } from './render-pdf.js';

// A claim's PDF letter is a pure function of its letter (render-pdf.ts), and making it costs far
// more than reading the letter's data (docs/benchmarks.md, bench:web session 17), a cost paid
// again by every view of the preview, each of its page images and every download. The rendered bytes are kept for the
// letter's exact content, so any change to an alert, a refund, the claim or the sender gives a
// new key and a new render; only the time of day (the PDF's creation timestamp) is left out of
// the key, the printed date being the day.

// A PDF over a quarter of the bound is answered, not kept.
const rendered = new ByteCache(64 * 1024 * 1024, 16 * 1024 * 1024);

function keyOf(letter: ClaimLetter): string {
  const sameDay = { ...letter, generatedAt: letter.generatedAt.slice(0, 10) };
  return createHash('sha256').update(JSON.stringify(sameDay)).digest('hex');
}

export function claimPdfOf(letter: ClaimLetter): Promise<Buffer> {
  return rendered.remembered(keyOf(letter), () => renderClaimPdf(letter));
}
