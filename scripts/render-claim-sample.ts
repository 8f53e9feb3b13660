// Renders the sample claim letter kept in docs/: docs/claim-letter-sample.pdf and a PNG of its
// first page (docs/claim-letter-sample.png). The letter is fixed, and the renderer is a pure
// function of it, so running this again gives the same PDF.
//   npx tsx scripts/render-claim-sample.ts        (needs pdftoppm from poppler-utils for the PNG)
import { execFile } from 'node:child_process';
import { rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import type { ClaimLetter, ClaimLetterLine, ClaimLetterRefund, ClaimLetterTotal } from '../src/claims/export/letter.js';
import { renderClaimPdf } from '../src/claims/export/render-pdf.js';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

type Item = [
  invoice: number,
  line: string | null,
  description: string | null,
  quantity: string | null,
  unit: string | null,
  charged: string | null,
  agreed: string | null,
  citation: string | null,
];

const INVOICES = [
  { number: 'F-2026-10412', date: '2026-02-27', currency: 'NOK' },
  { number: 'F-2026-10588', date: '2026-03-31', currency: 'NOK' },
  { number: 'F-2026-10733', date: '2026-04-30', currency: 'NOK' },
  { number: 'RE-4471-2026', date: '2026-05-08', currency: 'EUR' },
  { number: 'F-2026-10901', date: '2026-05-29', currency: 'NOK' },
];

const PRICE_LIST = 'Bilag 2 Prisliste 2026';
const ITEMS: Item[] = [
  [
    0,
    '1',
    'Vakthold, objektvakt dagtid (Sørlandsparken)',
    '186',
    'HUR',
    '612.00',
    '575.00',
    `${PRICE_LIST}, item 'Objektvakt dag': 575.00 NOK per HUR`,
  ],
  [
    0,
    '2',
    'Vakthold, objektvakt natt og helg',
    '96',
    'HUR',
    '748.00',
    '690.00',
    `${PRICE_LIST}, item 'Objektvakt natt/helg': 690.00 NOK per HUR`,
  ],
  [
    0,
    '4',
    'Utrykning alarm, Grønland 12',
    '3',
    'EA',
    '1450.00',
    '1150.00',
    `${PRICE_LIST}, item 'Utrykning': 1150.00 NOK per EA`,
  ],
  [
    1,
    '1',
    'Vakthold, objektvakt dagtid (Sørlandsparken)',
    '204',
    'HUR',
    '612.00',
    '575.00',
    `${PRICE_LIST}, item 'Objektvakt dag': 575.00 NOK per HUR`,
  ],
  [
    1,
    '3',
    'Nøkkelhåndtering og låseservice',
    '1',
    'MON',
    '2400.00',
    '1800.00',
    `Rammeavtale § 5.3: «Nøkkelhåndtering inngår med 1 800 kr per måned, uavhengig av antall nøkler.»`,
  ],
  [1, null, null, null, null, null, null, null],
  [
    2,
    '1',
    'Vakthold, objektvakt dagtid (Sørlandsparken)',
    '192',
    'HUR',
    '612.00',
    '575.00',
    `${PRICE_LIST}, item 'Objektvakt dag': 575.00 NOK per HUR`,
  ],
  [
    2,
    '2',
    'Vakthold, objektvakt natt og helg',
    '120',
    'HUR',
    '748.00',
    '690.00',
    `${PRICE_LIST}, item 'Objektvakt natt/helg': 690.00 NOK per HUR`,
  ],
  [
    3,
    '1',
    'Sicherheitsschulung für Objektleiter, Düsseldorf (2 Tage, inkl. Prüfung)',
    '2',
    'DAY',
    '1980.00',
    '1650.00',
    `${PRICE_LIST}, item 'Kurs, per dag': 1650.00 EUR per DAY`,
  ],
  [
    3,
    '2',
    'Reisekosten Schulungsleiterin Jürgen & Söhne, Flug und Übernachtung',
    '1',
    'EA',
    '1265.40',
    '950.00',
    'Rammeavtale § 7.2: «Reisekostnader faktureres etter regning, begrenset til 950 EUR per reise.»',
  ],
  [
    4,
    '1',
    'Vakthold, objektvakt dagtid (Sørlandsparken)',
    '210',
    'HUR',
    '612.00',
    '575.00',
    `${PRICE_LIST}, item 'Objektvakt dag': 575.00 NOK per HUR`,
  ],
  [
    4,
    '2',
    'Vakthold, objektvakt natt og helg',
    '88',
    'HUR',
    '748.00',
    '690.00',
    `${PRICE_LIST}, item 'Objektvakt natt/helg': 690.00 NOK per HUR`,
  ],
  [4, '5', 'Drivstofftillegg 4,5 %', '1', 'EA', '3210.75', null, null],
];

function sampleLine(
  [invoiceIndex, lineReference, description, quantity, unit, charged, agreed, citation]: Item,
  index: number,
): ClaimLetterLine {
  const invoice = INVOICES[invoiceIndex]!;
  const chargedAmount = charged && quantity ? new Decimal(charged).times(quantity) : null;
  const agreedAmount = agreed && quantity ? new Decimal(agreed).times(quantity) : null;
  const wholeInvoice = lineReference === null;
  const fuel = description?.startsWith('Drivstoff') ?? false;
  const difference = wholeInvoice
    ? new Decimal('395.00')
    : fuel
      ? new Decimal(charged!)
      : chargedAmount!.minus(agreedAmount!);
  return {
    alertId: `5f0c2a1e-8d4b-4c3a-9e21-${String(index + 1).padStart(12, '0')}`,
    alertStatus: 'claimed',
    invoiceId: `sample-invoice-${invoiceIndex + 1}`,
    invoiceNumber: invoice.number,
    issueDate: invoice.date,
    lineReference,
    description,
    quantity,
    unit,
    chargedUnitPrice: charged,
    agreedUnitPrice: agreed,
    chargedAmount: chargedAmount?.toFixed(2) ?? null,
    agreedAmount: agreedAmount?.toFixed(2) ?? null,
    difference: difference.toFixed(2),
    currencyCode: invoice.currency,
    title: wholeInvoice
      ? 'Invoice fee not in the agreement'
      : fuel
        ? 'Surcharge not in the agreement'
        : 'Unit price above the agreed price',
    explanation: wholeInvoice
      ? 'The invoice adds a paper invoice fee of 395.00 NOK; the agreement has no invoice fees (§ 9.1: invoices are sent as EHF).'
      : fuel
        ? 'A fuel surcharge of 4.5 % (3,210.75 NOK) is charged; the agreement has fixed prices for 2026 and no surcharges.'
        : `Charged ${charged} ${invoice.currency} per ${unit}; agreed ${agreed} ${invoice.currency} per ${unit}.`,
    citation,
  };
}

function totalsOf(lines: ClaimLetterLine[], refunds: ClaimLetterRefund[]): ClaimLetterTotal[] {
  const currencies = [...new Set(lines.map((l) => l.currencyCode))].sort();
  return currencies.map((currencyCode) => {
    const claimed = lines
      .filter((l) => l.currencyCode === currencyCode)
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

const lines = ITEMS.map(sampleLine);
const refunds: ClaimLetterRefund[] = [
  { date: '2026-06-12', amount: '4500.00', currencyCode: 'NOK', reference: 'KN-2026-0318' },
];

export const SAMPLE_LETTER: ClaimLetter = {
  reference: 'CLM-2026-0017',
  title: 'Security services above the agreed prices, February to May 2026',
  status: 'in_progress',
  createdAt: '2026-06-03T07:45:00Z',
  generatedAt: '2026-06-18T09:30:00Z',
  organization: {
    name: 'Fjordbyen Eiendom AS',
    organizationNumber: '912 345 678',
    vatId: 'NO912345678MVA',
    address: ['Strandkaien 14', '4005 Stavanger', 'Norway'],
  },
  supplier: {
    name: 'Nordvakt Sikkerhet & Müller Objektschutz AS',
    organizationNumber: '998 877 665',
    vatId: 'NO998877665MVA',
    address: ['Tollbodgata 3', '4611 Kristiansand S', 'Norway'],
  },
  supplierContact: { name: 'Åse Bjørnstad-Köhler', email: 'faktura@nordvakt.example' },
  agreement: {
    id: 'sample-agreement',
    title: 'Rammeavtale vakt- og sikkerhetstjenester 2026–2027',
    startDate: '2026-01-01',
    endDate: '2027-12-31',
  },
  note: 'Your credit note KN-2026-0318 of 12 June covers part of the February invoice; it is deducted above. We would appreciate one credit note per currency for the rest.',
  lines,
  totals: totalsOf(lines, refunds),
  refunds,
};

const pdfPath = join(docs, 'claim-letter-sample.pdf');
await writeFile(pdfPath, await renderClaimPdf(SAMPLE_LETTER));
// pdftoppm names the page file itself (…-1.png); -singlefile keeps the name we give.
await promisify(execFile)('pdftoppm', [
  '-png',
  '-r',
  '80',
  '-f',
  '1',
  '-l',
  '1',
  '-singlefile',
  pdfPath,
  join(docs, 'claim-letter-sample.tmp'),
]);
await rename(join(docs, 'claim-letter-sample.tmp.png'), join(docs, 'claim-letter-sample.png'));
for (const file of ['claim-letter-sample.pdf', 'claim-letter-sample.png']) {
  console.log(`${file}: ${(await stat(join(docs, file))).size} bytes`);
}
