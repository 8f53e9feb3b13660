// npm run bench:claim-letter — rendering a claim letter (PDF, XLSX, CSV) of growing size in this
// process: no stack, the renderers are pure functions of the letter. Prints the time per format
// and size (best of R after one warm-up render), the PDF's pages and bytes, the time per line and
// its ratio to the smallest size (1.0 = linear), and the process's peak memory after each size.
//   npm run bench:claim-letter -- --lines 120,1200,5000 --rounds 3
import { parseArgs } from 'node:util';
import { Decimal } from 'decimal.js';
import type { ClaimLetter, ClaimLetterLine, ClaimLetterTotal } from '../../src/claims/export/letter.js';
import { renderClaimPdf } from '../../src/claims/export/render-pdf.js';
import { renderClaimCsv, renderClaimXlsx } from '../../src/claims/export/render-table.js';
import { printTable, seededRandom } from './support.js';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '120,1200,5000' },
    rounds: { type: 'string', default: '3' },
  },
});
const SIZES = values.lines.split(',').map(Number);
const ROUNDS = Number(values.rounds);
const CURRENCIES = ['NOK', 'SEK', 'EUR'] as const;

function generatedLetter(lineCount: number): ClaimLetter {
  const random = seededRandom(7);
  const lines: ClaimLetterLine[] = Array.from({ length: lineCount }, (_, index) => {
    const invoice = Math.floor(index / 4);
    const currencyCode = CURRENCIES[invoice % CURRENCIES.length]!;
    const quantity = new Decimal(1 + Math.floor(random() * 200)).dividedBy(4);
    const agreed = new Decimal(50 + Math.floor(random() * 2000)).dividedBy(4);
    const charged = agreed.plus(new Decimal(1 + Math.floor(random() * 400)).dividedBy(8));
    return {
      alertId: `alert-${index}`,
      alertStatus: 'claimed',
      invoiceId: `invoice-${invoice}`,
      invoiceNumber: `F-2026-${10_000 + invoice}`,
      issueDate: new Date(Date.UTC(2026, 0, 1 + Math.floor(invoice / 3))).toISOString().slice(0, 10),
      lineReference: String((index % 4) + 1),
      description: `Vakthold og tilsyn, objekt ${index % 37} (Sørlandsparken) – Prüfung und Wartung`,
      quantity: quantity.toFixed(),
      unit: 'HUR',
      chargedUnitPrice: charged.toFixed(),
      agreedUnitPrice: agreed.toFixed(2),
      chargedAmount: charged.times(quantity).toFixed(2),
      agreedAmount: agreed.times(quantity).toFixed(2),
      difference: charged.minus(agreed).times(quantity).toFixed(2),
      currencyCode,
      title: 'Unit price above the agreed price',
      explanation: `Charged ${charged.toFixed()} ${currencyCode} per HUR; agreed ${agreed.toFixed(2)}.`,
      citation: `Bilag 2 Prisliste 2026, item 'Objekt ${index % 37}': ${agreed.toFixed(2)} ${currencyCode} per HUR`,
    };
  });
  const totals: ClaimLetterTotal[] = [...CURRENCIES].sort().map((currencyCode) => {
    const claimed = lines
      .filter((l) => l.currencyCode === currencyCode)
      .reduce((sum, l) => sum.plus(l.difference), new Decimal(0));
    return { currencyCode, claimed: claimed.toFixed(2), refunded: '0.00', outstanding: claimed.toFixed(2) };
  });
  return {
    reference: 'CLM-2026-0099',
    title: 'Benchmark claim',
    status: 'in_progress',
    createdAt: '2026-06-01T08:00:00Z',
    generatedAt: '2026-06-02T08:00:00Z',
    organization: {
      name: 'Fjordbyen Eiendom AS',
      organizationNumber: '912 345 678',
      vatId: null,
      address: ['Strandkaien 14', '4005 Stavanger'],
    },
    supplier: {
      name: 'Nordvakt Sikkerhet AS',
      organizationNumber: '998 877 665',
      vatId: null,
      address: ['Tollbodgata 3', '4611 Kristiansand S'],
    },
    supplierContact: null,
    agreement: { id: 'agreement', title: 'Rammeavtale vakthold 2026', startDate: '2026-01-01', endDate: '2026-12-31' },
    note: null,
    lines,
    totals,
    refunds: [],
  };
}

async function best<T>(render: () => Promise<T> | T): Promise<{ ms: number; output: T }> {
  let result: { ms: number; output: T } | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const startedAt = performance.now();
    const output = await render();
    const ms = performance.now() - startedAt;
    if (!result || ms < result.ms) result = { ms, output };
  }
  return result!;
}

function pageCount(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  let count = 0;
  for (let at = text.indexOf('/Type /Page\n'); at !== -1; at = text.indexOf('/Type /Page\n', at + 1)) count++;
  return count;
}

const peakMb = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);

// One warm-up render of each format: module loading, font parsing and JIT are not the letter's cost.
const warmUp = generatedLetter(SIZES[0]!);
await renderClaimPdf(warmUp);
await renderClaimXlsx(warmUp);
renderClaimCsv(warmUp);

const perLine: Record<string, number> = {};
for (const size of SIZES) {
  const letter = generatedLetter(size);
  const pdf = await best(() => renderClaimPdf(letter));
  const xlsx = await best(() => renderClaimXlsx(letter));
  const csv = await best(() => renderClaimCsv(letter));
  const rows: [string, string][] = [];
  for (const [format, result, bytes] of [
    ['pdf', pdf, pdf.output.length],
    ['xlsx', xlsx, xlsx.output.length],
    ['csv', csv, Buffer.byteLength(csv.output)],
  ] as const) {
    const msPerLine = result.ms / size;
    perLine[format] ??= msPerLine;
    rows.push([`${format}: ms (best of ${ROUNDS})`, result.ms.toFixed(0)]);
    rows.push([
      `${format}: ms per line (ratio to ${SIZES[0]} lines)`,
      `${msPerLine.toFixed(3)} (${(msPerLine / perLine[format]).toFixed(2)})`,
    ]);
    rows.push([`${format}: bytes`, String(bytes)]);
  }
  rows.push(['pdf: pages', String(pageCount(pdf.output))]);
  rows.push(['process peak RSS so far, MB', peakMb()]);
  printTable(`Claim letter with ${size} lines`, rows);
}
