import { describe, expect, it } from 'vitest';
import { lineImpact } from '../../../src/alerts/impact.js';

const amount = (value: string, currency_code?: string) => ({
  currency_code,
  price: { type: 'amount' as const, amount: value },
});

describe('line impact from expected prices', () => {
  it('is (unit price - expected) x quantity, rounded half-up to cents', () => {
    // 0.335 x 3 = 1.005 -> 1.01 (half-up, exact decimals)
    expect(
      lineImpact(
        { quantity: '3', unitPrice: '4.335', priceBaseQuantity: null, netAmount: null },
        [amount('4.00')],
        'EUR',
      ),
    ).toEqual({ ok: true, amount: '1.01' });
    expect(
      lineImpact(
        { quantity: '10', unitPrice: '5.00', priceBaseQuantity: null, netAmount: null },
        [amount('5.50')],
        'EUR',
      ),
    ).toEqual({ ok: true, amount: '-5.00' });
  });

  it('uses the price per base quantity', () => {
    // 120 per 100 units = 1.20 each; 1.20 - 1.00 = 0.20 x 250
    expect(
      lineImpact(
        { quantity: '250', unitPrice: '120', priceBaseQuantity: '100', netAmount: '300' },
        [amount('1.00')],
        'NOK',
      ),
    ).toEqual({ ok: true, amount: '50.00' });
  });

  it('falls back to net amount / quantity without a unit price', () => {
    expect(
      lineImpact({ quantity: '4', unitPrice: null, priceBaseQuantity: null, netAmount: '50' }, [amount('10')], 'EUR'),
    ).toEqual({ ok: true, amount: '10.00' });
  });

  it('uses the first amount entry and refuses what it cannot calculate', () => {
    const line = { quantity: '2', unitPrice: '10', priceBaseQuantity: null, netAmount: null };
    expect(
      lineImpact(line, [{ price: { type: 'rate', fraction: '0.1', basis: 'subtotal' } }, amount('9')], 'EUR'),
    ).toEqual({ ok: true, amount: '2.00' });
    expect(lineImpact(line, [{ price: { type: 'rate', fraction: '0.1', basis: 'subtotal' } }], 'EUR').ok).toBe(false);
    expect(lineImpact(line, [amount('9', 'USD')], 'EUR').ok).toBe(false);
    expect(
      lineImpact({ quantity: null, unitPrice: '10', priceBaseQuantity: null, netAmount: null }, [amount('9')], 'EUR')
        .ok,
    ).toBe(false);
  });
});
