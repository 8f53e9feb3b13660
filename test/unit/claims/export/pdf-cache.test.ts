import { describe, expect, it } from 'vitest';
import { claimPdfOf } from '../../../../src/claims/export/pdf-cache.js';
import { renderClaimPdf } from '../../../../src/claims/export/render-pdf.js';
import { letter, line } from './letters.js';

describe('the PDF letter, kept for its exact content', () => {
  it('answers the same letter with the bytes rendered for it, later the same day too', async () => {
    const morning = letter({ reference: 'CLM-CACHE-1', generatedAt: '2026-03-20T08:00:00.000Z' });
    const first = await claimPdfOf(morning);
    expect(first).toEqual(await renderClaimPdf(morning));
    const again = await claimPdfOf({ ...morning, generatedAt: '2026-03-20T16:30:00.000Z' });
    expect(again).toBe(first);
  });

  it('renders anew when anything printed changes: a line, an amount, the day', async () => {
    const base = letter({ reference: 'CLM-CACHE-2', generatedAt: '2026-03-20T08:00:00.000Z' });
    const first = await claimPdfOf(base);
    const changedAmount = await claimPdfOf({
      ...base,
      lines: base.lines.map((l, index) => (index === 0 ? { ...l, difference: '999.00' } : l)),
    });
    const moreLines = await claimPdfOf({
      ...base,
      lines: [...base.lines, line({ alertId: 'a9', lineReference: '9' })],
    });
    const nextDay = await claimPdfOf({ ...base, generatedAt: '2026-03-21T08:00:00.000Z' });
    for (const other of [changedAmount, moreLines, nextDay]) {
      expect(other).not.toBe(first);
      expect(other.equals(first)).toBe(false);
    }
  });
});
