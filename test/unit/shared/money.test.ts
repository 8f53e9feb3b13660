import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Prisma } from '../../../src/db/client.js';
import { formatAmount, formatDecimal } from '../../../src/shared/money.js';

// A database read gives Prisma's Decimal; logic gives decimal.js's; inputs give text or numbers.
// Each renders the same.
const kinds = (text: string) => [text, new Decimal(text), new Prisma.Decimal(text)];

describe('money formatting', () => {
  it('renders amounts with at least two decimals and never rounds, from every kind of decimal', () => {
    const cases: [string, string][] = [
      ['1250', '1250.00'],
      ['1250.5', '1250.50'],
      ['1250.500', '1250.50'],
      ['0.125', '0.125'],
      ['-3', '-3.00'],
      ['-0.005', '-0.005'],
      ['123456789012345678.123456789', '123456789012345678.123456789'],
      ['1e-7', '0.0000001'],
    ];
    for (const [input, expected] of cases) for (const value of kinds(input)) expect(formatAmount(value)).toBe(expected);
    expect(formatAmount(12.5)).toBe('12.50');
    expect(formatAmount(null)).toBeNull();
  });

  it('renders quantities, prices and rates exactly as recorded, in plain notation', () => {
    const cases: [string, string][] = [
      ['1.50', '1.5'],
      ['0.25', '0.25'],
      ['1e21', '1000000000000000000000'],
      ['1e-7', '0.0000001'],
      ['-42', '-42'],
    ];
    for (const [input, expected] of cases)
      for (const value of kinds(input)) expect(formatDecimal(value)).toBe(expected);
    expect(formatDecimal(undefined)).toBeNull();
  });

  it('renders the plain text of a numeric (read from its text, without a Decimal) as decimal.js renders it', () => {
    const cases: [string, string, string][] = [
      ['0', '0.00', '0'],
      ['-0.00', '0.00', '0'],
      ['10', '10.00', '10'],
      ['10.0', '10.00', '10'],
      ['10.10', '10.10', '10.1'],
      ['-7.000', '-7.00', '-7'],
      ['0.0001000', '0.0001', '0.0001'],
    ];
    for (const [input, amount, decimal] of cases) {
      expect(formatAmount(input)).toBe(amount);
      expect(formatDecimal(input)).toBe(decimal);
    }
    const plainDecimal = fc
      .tuple(
        fc.boolean(),
        fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,30}$/)),
        fc.option(fc.stringMatching(/^\d{1,30}$/)),
      )
      .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`);
    fc.assert(
      fc.property(plainDecimal, (text) => {
        const decimal = new Decimal(text);
        expect(formatAmount(text)).toBe(formatAmount(decimal));
        expect(formatDecimal(text)).toBe(formatDecimal(decimal));
      }),
      { numRuns: 2000 },
    );
  });
});
