/**
 * Property: whatever happens to the bytes of a real sample (cut short, bytes flipped), the
 * parser answers with one of the three outcome kinds, never throws, and never reports an
 * internal error. Seeded, so a failure reproduces.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInvoiceDocument } from '../../../../src/invoices/parsing/index.js';
import { parseOutcomeSchema } from '../../../../src/invoices/parsing/schema.js';
import { sampleBytes, samplesRoot } from './samples.js';

/** mulberry32: a tiny, well-distributed 32-bit PRNG. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const allSamples = readdirSync(samplesRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((folder) => readdirSync(path.join(samplesRoot, folder.name)).map((file) => `${folder.name}/${file}`));

function truncated(bytes: Uint8Array, random: () => number): Uint8Array {
  return bytes.slice(0, Math.floor(random() * bytes.byteLength));
}

function withFlippedBytes(bytes: Uint8Array, random: () => number): Uint8Array {
  const copy = bytes.slice();
  const flips = 1 + Math.floor(random() * 8);
  for (let flip = 0; flip < flips; flip += 1) {
    const index = Math.floor(random() * copy.byteLength);
    copy[index] = (copy[index] ?? 0) ^ (1 + Math.floor(random() * 255));
  }
  return copy;
}

async function expectAnswered(bytes: Uint8Array, label: string) {
  const outcome = await parseInvoiceDocument({ bytes });
  expect(parseOutcomeSchema.safeParse(outcome).success, label).toBe(true);
  if (outcome.kind === 'failed') expect(outcome.code, `${label}: ${outcome.message}`).not.toBe('internal_error');
}

describe('mutated samples never break the parser', () => {
  it('covers every sample', () => {
    expect(allSamples.length).toBeGreaterThanOrEqual(40);
  });

  it.each(allSamples)('%s: truncated and byte-flipped variants', async (sample) => {
    const random = seededRandom([...sample].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7));
    const bytes = sampleBytes(sample);
    // PDFs are slower to open, so they get fewer variants; 43 samples give ~300 cases.
    const variants = sample.endsWith('.pdf') ? 3 : 4;
    for (let variant = 0; variant < variants; variant += 1) {
      await expectAnswered(truncated(bytes, random), `${sample} truncated #${variant}`);
      await expectAnswered(withFlippedBytes(bytes, random), `${sample} flipped #${variant}`);
    }
  });
});
