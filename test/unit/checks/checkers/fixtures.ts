import type {
  CheckAgreement,
  CheckInput,
  CheckInvoice,
  CheckLine,
  CheckPriceItem,
  PriorCharge,
  RateLookup,
} from '../../../../src/checks/checkers/types.js';

export function line(overrides: Partial<CheckLine> = {}): CheckLine {
  return {
    id: 'line-1',
    position: 0,
    lineNumber: '1',
    description: 'Copy paper A4',
    sellerItemId: 'P-100',
    quantity: '10',
    unitCode: 'BX',
    unitPrice: '10.00',
    priceBaseQuantity: null,
    netAmount: '100.00',
    periodStart: null,
    periodEnd: null,
    ...overrides,
  };
}

export function priceItem(overrides: Partial<CheckPriceItem> = {}): CheckPriceItem {
  return {
    id: 'item-paper',
    description: 'Copy paper A4',
    sellerItemId: 'P-100',
    unit: 'box',
    currencyCode: 'NOK',
    priceType: 'amount',
    amount: '10.00',
    fraction: null,
    basis: null,
    validUntil: null,
    sourceDocumentId: 'doc-prices',
    ...overrides,
  };
}

export function rateItem(overrides: Partial<CheckPriceItem> = {}): CheckPriceItem {
  return priceItem({
    id: 'item-rate',
    sellerItemId: null,
    unit: null,
    currencyCode: null,
    priceType: 'rate',
    amount: null,
    fraction: '0.05',
    basis: 'invoice_subtotal',
    ...overrides,
  });
}

/** An invoice whose totals agree with its lines (no allowances, 25 % VAT). */
export function invoice(overrides: Partial<CheckInvoice> = {}): CheckInvoice {
  return {
    id: 'inv-1',
    invoiceNumber: '1001',
    documentType: 'invoice',
    currencyCode: 'NOK',
    issueDate: '2026-03-01',
    periodStart: null,
    periodEnd: null,
    supplierId: 'sup-1',
    exchangeRate: null,
    lines: [line()],
    allowanceCharges: [],
    totals: {
      lineExtension: '100.00',
      allowanceTotal: null,
      chargeTotal: null,
      taxExclusive: '100.00',
      vatTotal: '25.00',
      taxInclusive: '125.00',
      prepaid: null,
      payableRounding: null,
      payable: '125.00',
    },
    ...overrides,
  };
}

export function agreement(overrides: Partial<CheckAgreement> = {}): CheckAgreement {
  return {
    id: 'agr-1',
    title: 'Office supplies 2026',
    effectiveDate: '2026-01-01',
    expirationDate: '2026-12-31',
    priceItems: [priceItem()],
    ...overrides,
  };
}

export const noRates: RateLookup = () => null;

export function rateTable(table: Record<string, string>, source = 'ECB'): RateLookup {
  return (from, to, date) => {
    const rate = table[`${from}/${to}`];
    return rate === undefined ? null : { rate, date, source };
  };
}

export interface InputOverrides {
  invoice?: Partial<CheckInvoice>;
  agreement?: Partial<CheckAgreement>;
  rates?: RateLookup;
  priorCharges?: PriorCharge[];
}

export function input(overrides: InputOverrides = {}): CheckInput {
  return {
    invoice: invoice(overrides.invoice),
    agreement: agreement(overrides.agreement),
    rates: overrides.rates ?? noRates,
    priorCharges: overrides.priorCharges ?? [],
  };
}

export function prior(overrides: Partial<PriorCharge> = {}): PriorCharge {
  return {
    invoiceId: 'inv-0',
    invoiceNumber: '0999',
    lineId: 'prior-line-1',
    sellerItemId: 'P-100',
    description: 'Copy paper A4',
    unitCode: 'BX',
    periodStart: null,
    periodEnd: null,
    quantity: '10',
    netAmount: '100.00',
    issueDate: '2026-02-25',
    ...overrides,
  };
}
