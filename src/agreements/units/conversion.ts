import type { Decimal } from 'decimal.js';

/** "1 förp = 10 EA": { fromUnit: 'förp', quantity: '10', toUnit: 'EA' }. */
export interface UnitConversion {
  fromUnit: string;
  quantity: string | Decimal;
  toUnit: string;
}
