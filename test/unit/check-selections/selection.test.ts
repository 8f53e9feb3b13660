import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  firstDistinctInvoiceIds,
  limitViolations,
  replacementImpact,
  runBatches,
  sampleInvoiceIds,
  selectionFingerprint,
  summarizeExclusions,
  type FingerprintInput,
} from '../../../src/check-selections/selection.js';

const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('sampleInvoiceIds', () => {
  const invoices = ids(40);

  it('takes the invoices with the smallest md5(seed || id), each once', () => {
    const withRepeats = [...invoices, ...invoices.slice(0, 10)];
    const sample = sampleInvoiceIds(withRepeats, 'seed-1', 10);
    const expected = [...invoices].sort((a, b) => (md5(`seed-1${a}`) < md5(`seed-1${b}`) ? -1 : 1)).slice(0, 10);
    expect(sample).toEqual(expected);
    expect(new Set(sample).size).toBe(10);
  });

  it('is stable for a seed whatever the order of the candidates, and differs for another seed', () => {
    const shuffled = [...invoices].reverse();
    expect(sampleInvoiceIds(shuffled, '42', 5)).toEqual(sampleInvoiceIds(invoices, '42', 5));
    expect(sampleInvoiceIds(invoices, '43', 5)).not.toEqual(sampleInvoiceIds(invoices, '42', 5));
  });

  it('keeps the sample when a candidate that sorts after it joins the scope', () => {
    const before = sampleInvoiceIds(invoices, 's', 3);
    const lastKey = md5(`s${before[2]}`);
    let newcomer = randomUUID();
    while (md5(`s${newcomer}`) < lastKey) newcomer = randomUUID();
    expect(sampleInvoiceIds([...invoices, newcomer], 's', 3)).toEqual(before);
  });

  it('returns every candidate when there are fewer than the size', () => {
    expect(sampleInvoiceIds(invoices.slice(0, 3), 'x', 10).sort()).toEqual(invoices.slice(0, 3).sort());
    expect(sampleInvoiceIds([], 'x', 10)).toEqual([]);
  });
});

describe('firstDistinctInvoiceIds', () => {
  it('takes the first distinct invoices in pair order', () => {
    const [a, b, c] = ids(3) as [string, string, string];
    const agreement = randomUUID();
    const pairs = [a, b, a, c, b].map((invoiceId) => ({ invoiceId, agreementId: agreement }));
    expect(firstDistinctInvoiceIds(pairs, 2)).toEqual([a, b]);
    expect(firstDistinctInvoiceIds(pairs)).toEqual([a, b, c]);
  });
});

describe('summarizeExclusions', () => {
  it('counts per reason, most frequent first, with at most five examples', () => {
    const agreement = randomUUID();
    const excluded = [
      ...ids(7).map((invoiceId) => ({ reason: 'credit_note', invoiceId, agreementId: agreement })),
      { reason: 'agreement_not_active', invoiceId: null, agreementId: agreement },
    ];
    const summary = summarizeExclusions(excluded);
    expect(summary.map((s) => [s.reason, s.count, s.examples.length])).toEqual([
      ['credit_note', 7, 5],
      ['agreement_not_active', 1, 1],
    ]);
    expect(summary[0]!.examples[0]).toEqual({ invoice_id: excluded[0]!.invoiceId, agreement_id: agreement });
    expect(summary[1]!.examples[0]).toEqual({ invoice_id: null, agreement_id: agreement });
  });
});

describe('replacementImpact', () => {
  it('counts replaced alerts by status, keeps claimed ones, and sums pending money per currency in decimals', () => {
    const impact = replacementImpact([
      { status: 'pending', inClaim: false, currencyCode: 'EUR', count: 2, amount: '0.1000' },
      { status: 'pending', inClaim: false, currencyCode: 'EUR', count: 1, amount: '0.2000' },
      { status: 'pending', inClaim: false, currencyCode: 'NOK', count: 1, amount: '350.0000' },
      { status: 'dismissed', inClaim: false, currencyCode: 'EUR', count: 3, amount: '99.00' },
      { status: 'credited', inClaim: false, currencyCode: 'EUR', count: 1, amount: '5.00' },
      { status: 'claimed', inClaim: true, currencyCode: 'EUR', count: 4, amount: '10.00' },
      { status: 'pending', inClaim: true, currencyCode: 'EUR', count: 1, amount: '10.00' },
    ]);
    expect(impact).toEqual({
      alerts: 8,
      by_status: { pending: 4, dismissed: 3, credited: 1 },
      kept_in_claims: 5,
      impact: [
        { currency_code: 'EUR', amount: '0.30' },
        { currency_code: 'NOK', amount: '350.00' },
      ],
    });
  });

  it('is all zeros without alerts', () => {
    expect(replacementImpact([])).toEqual({
      alerts: 0,
      by_status: { pending: 0, dismissed: 0, credited: 0 },
      kept_in_claims: 0,
      impact: [],
    });
  });
});

describe('selectionFingerprint', () => {
  const [i1, i2] = ids(2) as [string, string];
  const a1 = randomUUID();
  const base: FingerprintInput = {
    mode: 'outstanding',
    pairs: [
      { invoiceId: i1, agreementId: a1 },
      { invoiceId: i2, agreementId: a1 },
    ],
    invoiceVersions: { [i1]: '2026-01-01T00:00:00.000Z', [i2]: '2026-01-02T00:00:00.000Z' },
    agreementVersions: { [a1]: '2026-01-03T00:00:00.000Z' },
    replacement: replacementImpact([]),
  };

  it('does not depend on the order of the pairs or versions', () => {
    const reordered = {
      ...base,
      pairs: [...base.pairs].reverse(),
      invoiceVersions: { [i2]: base.invoiceVersions[i2]!, [i1]: base.invoiceVersions[i1]! },
    };
    expect(selectionFingerprint(reordered)).toBe(selectionFingerprint(base));
    expect(selectionFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the pairs, a version, the mode or the alerts replaced', () => {
    const fingerprint = selectionFingerprint(base);
    const variants: FingerprintInput[] = [
      { ...base, pairs: base.pairs.slice(1) },
      { ...base, invoiceVersions: { ...base.invoiceVersions, [i1]: '2026-02-01T00:00:00.000Z' } },
      { ...base, agreementVersions: { [a1]: '2026-02-01T00:00:00.000Z' } },
      { ...base, mode: 'again' },
      {
        ...base,
        replacement: replacementImpact([
          { status: 'pending', inClaim: false, currencyCode: 'EUR', count: 1, amount: '1.00' },
        ]),
      },
    ];
    const others = variants.map(selectionFingerprint);
    expect(others).not.toContain(fingerprint);
    expect(new Set(others).size).toBe(variants.length);
  });
});

describe('runBatches', () => {
  it('makes one run per agreement, split at the per-run maximum', () => {
    const [a, b] = [randomUUID(), randomUUID()].sort() as [string, string];
    const pairs = [
      ...ids(5).map((invoiceId) => ({ invoiceId, agreementId: b })),
      ...ids(2).map((invoiceId) => ({ invoiceId, agreementId: a })),
    ];
    const batches = runBatches(pairs, 2);
    expect(batches.map((batch) => [batch.agreementId, batch.part, batch.pairs.length])).toEqual([
      [a, 0, 2],
      [b, 0, 2],
      [b, 1, 2],
      [b, 2, 1],
    ]);
    expect(batches.flatMap((batch) => batch.pairs)).toHaveLength(7);
  });
});

describe('limitViolations', () => {
  it('allows 5,000 checks over 50 agreements, not one more of either', () => {
    expect(limitViolations({ checks: 5000, agreements: 50 })).toEqual([]);
    expect(limitViolations({ checks: 5001, agreements: 50 })).toHaveLength(1);
    expect(limitViolations({ checks: 10, agreements: 51 })).toHaveLength(1);
  });
});
