import { describe, expect, it } from 'vitest';
import {
  lineArithmeticChecker,
  matchPriceItem,
  notInPriceListChecker,
  unitPriceChecker,
} from '../../../../src/checks/checkers/index.js';
import { input, line, priceItem } from './fixtures.js';

// Issue 29's line rules: net prices after line allowances, units through the unit table and the
// price item's conversions, the line rounding tolerance, and valid_from.

const units = (overrides: Parameters<typeof input>[0]) => unitPriceChecker.run(input(overrides));
const arithmetic = (overrides: Parameters<typeof input>[0]) => lineArithmeticChecker.run(input(overrides));
const discount = (amount: string) => [{ isCharge: false, amount }];

describe('line allowances', () => {
  it('compares the net price: a line discount down to the agreed price is no overcharge, and no arithmetic error', () => {
    const discounted = line({
      quantity: '20',
      unitCode: 'KGM',
      unitPrice: '5.27',
      netAmount: '79.00',
      allowanceCharges: discount('26.40'),
    });
    const overrides = {
      invoice: { lines: [discounted] },
      agreement: { priceItems: [priceItem({ unit: 'kg', amount: '3.95' })] },
    };
    expect(units(overrides)).toEqual([]);
    expect(arithmetic(overrides)).toEqual([]);
  });

  it('prices what is left above the agreed price after the discount, and says how the net price came about', () => {
    const discounted = line({
      quantity: '10',
      unitCode: 'KGM',
      unitPrice: '5.27',
      netAmount: '42.70',
      allowanceCharges: discount('10.00'),
    });
    const [finding] = units({
      invoice: { lines: [discounted] },
      agreement: { priceItems: [priceItem({ unit: 'kg', amount: '3.95' })] },
    });
    expect(finding).toMatchObject({ impactAmount: '3.20', confidence: 'certain' });
    expect(finding!.explanation).toContain('4.27 NOK per kg after its line allowances (price 5.27 - 10.00 over 10 kg)');
  });

  it('counts a line charge into the net price', () => {
    const charged = line({
      quantity: '10',
      unitPrice: '10.00',
      netAmount: '105.00',
      allowanceCharges: [{ isCharge: true, amount: '5.00' }],
    });
    expect(units({ invoice: { lines: [charged] } })).toMatchObject([{ impactAmount: '5.00' }]);
  });

  it('takes a discount that cannot land on whole cents per unit as rounding, within the tolerance', () => {
    // 3 x 3.67 - 1.01 = 10.00, one cent above 3 x 3.33.
    const odd = line({ quantity: '3', unitPrice: '3.67', netAmount: '10.00', allowanceCharges: discount('1.01') });
    const overrides = { invoice: { lines: [odd] }, agreement: { priceItems: [priceItem({ amount: '3.33' })] } };
    expect(units(overrides)).toEqual([]);
    expect(unitPriceChecker.run({ ...input(overrides), settings: { lineRoundingMinorUnits: 0 } })).toMatchObject([
      { impactAmount: '0.01' },
    ]);
  });

  it('with allowances unknown, charges what the line nets', () => {
    const unknown = line({ quantity: '20', unitPrice: '5.27', netAmount: '79.00' });
    expect(
      units({ invoice: { lines: [unknown] }, agreement: { priceItems: [priceItem({ amount: '3.95' })] } }),
    ).toEqual([]);
  });
});

describe('units and conversions', () => {
  it("reads the agreement's words as the invoice's codes, never certain, and names the mapping", () => {
    const [finding] = units({
      invoice: { lines: [line({ unitCode: 'PR', unitPrice: '11.00', netAmount: '110.00' })] },
      agreement: { priceItems: [priceItem({ unit: 'Paar' })] },
    });
    expect(finding).toMatchObject({ impactAmount: '10.00', confidence: 'high' });
    expect(finding!.explanation).toContain('"Paar" read as PR (pair)');
  });

  it('prices through a pack size both ways', () => {
    const perPack = priceItem({
      unit: 'förp',
      amount: '50.00',
      unitConversions: [{ fromUnit: 'förp', quantity: '10', toUnit: 'EA' }],
    });
    const [down] = units({
      invoice: { lines: [line({ quantity: '20', unitCode: 'EA', unitPrice: '5.50', netAmount: '110.00' })] },
      agreement: { priceItems: [perPack] },
    });
    expect(down).toMatchObject({
      impactAmount: '10.00',
      confidence: 'certain',
      expected: [{ unit: 'EA', price: { type: 'amount', amount: '5.00' } }],
    });
    expect(down!.explanation).toContain('50.00 NOK per förp [2], which is 5.00 NOK per EA at 1 förp = 10 EA');

    const perPiece = priceItem({
      unit: 'EA',
      amount: '5.00',
      unitConversions: [{ fromUnit: 'PK', quantity: '10', toUnit: 'EA' }],
    });
    const [up] = units({
      invoice: { lines: [line({ quantity: '2', unitCode: 'PK', unitPrice: '55.00', netAmount: '110.00' })] },
      agreement: { priceItems: [perPiece] },
    });
    expect(up).toMatchObject({ impactAmount: '10.00' });
  });

  it('leaves a unit the agreement does not price, or convert to, to the not-in-list check', () => {
    const overrides = {
      invoice: { lines: [line({ unitCode: 'KGM', unitPrice: '11.00', netAmount: '110.00' })] },
      agreement: { priceItems: [priceItem({ unit: 'förp' })] },
    };
    expect(units(overrides)).toEqual([]);
    expect(notInPriceListChecker.run(input(overrides))).toMatchObject([
      { title: 'Item billed in a unit the agreement does not price: Copy paper A4' },
    ]);
  });
});

describe('line rounding tolerance', () => {
  it("takes one cent per line as rounding by default, and follows the organization's setting", () => {
    const rounded = {
      invoice: { lines: [line({ quantity: '7', unitPrice: '145.00', netAmount: '1015.01', allowanceCharges: [] })] },
    };
    expect(arithmetic(rounded)).toEqual([]);
    expect(lineArithmeticChecker.run({ ...input(rounded), settings: { lineRoundingMinorUnits: 0 } })).toMatchObject([
      { impactAmount: '0.01', confidence: 'certain' },
    ]);
    const twoCents = {
      invoice: { lines: [line({ quantity: '7', unitPrice: '145.00', netAmount: '1015.02', allowanceCharges: [] })] },
    };
    expect(arithmetic(twoCents)).toMatchObject([{ impactAmount: '0.02' }]);
    expect(lineArithmeticChecker.run({ ...input(twoCents), settings: { lineRoundingMinorUnits: 2 } })).toEqual([]);
  });
});

describe('valid_from', () => {
  const old = priceItem({ id: 'old', amount: '10.00', validUntil: '2026-02-28' });
  const raised = priceItem({ id: 'new', amount: '12.00', validFrom: '2026-03-01' });

  it('chooses the price valid on the invoice date', () => {
    expect(matchPriceItem(line(), [old, raised], { invoiceDate: '2026-03-10' })!.priceItem.id).toBe('new');
    expect(matchPriceItem(line(), [old, raised], { invoiceDate: '2026-02-10' })!.priceItem.id).toBe('old');
    // Of two prices in force, the one that started last.
    const open = priceItem({ id: 'open', amount: '10.00' });
    expect(matchPriceItem(line(), [open, raised], { invoiceDate: '2026-03-10' })!.priceItem.id).toBe('new');
    expect(matchPriceItem(line(), [open, raised], { invoiceDate: '2026-02-10' })!.priceItem.id).toBe('open');
  });

  it('says a price not yet valid is not yet valid', () => {
    const [finding] = notInPriceListChecker.run(
      input({ invoice: { issueDate: '2026-02-10' }, agreement: { priceItems: [raised] } }),
    );
    expect(finding).toMatchObject({ title: 'Agreed price not yet valid: Copy paper A4' });
    expect(finding!.explanation).toContain('applies from 2026-03-01, after the invoice date 2026-02-10');
  });
});

describe('an invoice read from a PDF', () => {
  it('held for review (its reading does not add up), gives nothing above medium, and says why', async () => {
    const { runCheckers } = await import('../../../../src/checks/checkers/index.js');
    const overrides = {
      invoice: {
        lines: [line({ unitPrice: '11.00', netAmount: '110.00' })],
        totals: { ...input().invoice.totals, lineExtension: '110.00' },
      },
    };
    const read = input(overrides);
    const held = runCheckers({
      ...read,
      invoice: {
        ...read.invoice,
        readFrom: 'pdf_text' as const,
        extraction: { method: 'pdf_text' as const, needsReview: true, linesConfidence: 0.4 },
      },
    });
    expect(held.length).toBeGreaterThan(0);
    for (const finding of held) {
      expect(['medium', 'low']).toContain(finding.confidence);
      expect(finding.explanation).toContain('awaits review');
    }
  });
  it('is never certain, and says its figures were read from the PDF text', async () => {
    const { runCheckers } = await import('../../../../src/checks/checkers/index.js');
    const overrides = {
      invoice: {
        lines: [line({ unitPrice: '11.00', netAmount: '110.00' })],
        totals: { ...input().invoice.totals, lineExtension: '110.00' },
      },
    };
    const structured = runCheckers(input(overrides)).find((f) => f.checker === 'unit_price_above_agreed')!;
    expect(structured.confidence).toBe('certain');
    const read = input(overrides);
    const fromPdf = runCheckers({ ...read, invoice: { ...read.invoice, readFrom: 'pdf_text' as const } });
    expect(fromPdf.length).toBeGreaterThan(0);
    for (const finding of fromPdf) {
      expect(finding.confidence).not.toBe('certain');
      expect(finding.explanation).toContain('read from the text of its PDF');
    }
  });
});
