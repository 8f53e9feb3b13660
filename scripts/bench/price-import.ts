// npm run bench:price-import — a 20,000-row price list (XLSX, then the same rows as CSV) uploaded
// as a document through the API, imported with POST /v1/agreements/{id}/price-imports and polled
// until the import ends; compared with readPriceList alone on the same bytes, in this process.
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { readPriceList } from '../../src/agreements/price-lists/index.js';
import { printTable, seconds, seededRandom, sleep, withBenchStack, type BenchTenant } from './support.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '20000' } } });
const ROWS = Number(values.rows);
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const random = seededRandom(7);
const UNITS = ['stk', 'pk', 'kg', 'l', 'm', 'eske'];
const PRODUCTS = [
  'Kopipapir A4',
  'Toner sort',
  'Kulepenn blå',
  'Stiftemaskin',
  'Arkivboks',
  'Tusj',
  'Whiteboard',
  'Kaffe',
  'Håndsåpe',
  'Tørkerull',
];
const TITLE_ROWS = [['Prisliste 2026'], ['Leverandør: Kontorhuset AS'], ['Alle priser eks. mva.'], []];
const HEADER = ['Artikkelnummer', 'Varenavn', 'Enhet', 'Nettopris', 'Valuta', 'Gyldig til', 'MVA %'];

interface PriceRow {
  articleNumber: string;
  name: string;
  unit: string;
  price: number | string;
  currency: string;
  validUntil: Date | null;
}

// Mostly good rows; one in a hundred repeats an earlier row (skipped) and one in two hundred has
// a price nobody can read (rejected), as real lists do.
function priceRows(): PriceRow[] {
  const rows: PriceRow[] = [];
  for (let i = 1; i <= ROWS; i++) {
    if (i > 10 && random() < 0.01) {
      rows.push({ ...rows[Math.floor(random() * rows.length)]! });
      continue;
    }
    rows.push({
      articleNumber: `KH-${String(i).padStart(6, '0')}`,
      name: `${PRODUCTS[i % PRODUCTS.length]} ${i}`,
      unit: UNITS[i % UNITS.length]!,
      price: random() < 0.005 ? 'på forespørsel' : Math.round(random() * 1_000_000) / 100,
      currency: random() < 0.9 ? 'NOK' : 'EUR',
      validUntil: random() < 0.3 ? new Date(Date.UTC(2026, 11, 31)) : null,
    });
  }
  return rows;
}

async function xlsxOf(rows: PriceRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Prisliste');
  for (const title of TITLE_ROWS) sheet.addRow(title);
  sheet.addRow(HEADER);
  for (const row of rows)
    sheet.addRow([row.articleNumber, row.name, row.unit, row.price, row.currency, row.validUntil, 25]);
  sheet.getColumn(4).numFmt = '#,##0.00';
  sheet.getColumn(6).numFmt = 'dd.mm.yyyy';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// The same rows as a Nordic spreadsheet exports them: semicolons, decimal commas, dd.mm.yyyy.
function csvOf(rows: PriceRow[]): Buffer {
  const date = (d: Date | null) =>
    d
      ? `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`
      : '';
  const price = (p: number | string) => (typeof p === 'number' ? p.toFixed(2).replace('.', ',') : p);
  const lines = [
    ...TITLE_ROWS.map((t) => t.join(';')),
    HEADER.join(';'),
    ...rows.map((r) =>
      [r.articleNumber, r.name, r.unit, price(r.price), r.currency, date(r.validUntil), '25'].join(';'),
    ),
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

async function uploadDocument(tenant: BenchTenant, fileName: string, bytes: Buffer, mimeType: string): Promise<string> {
  const registration = await tenant.call('/v1/documents/upload', {
    method: 'POST',
    body: { file_name: fileName, mime_type: mimeType, file_size: bytes.length, category: 'price_list' },
  });
  if (registration.status !== 201) throw new Error(`registration failed: ${JSON.stringify(registration.body)}`);
  const put = await fetch(registration.body.upload_url, {
    method: 'PUT',
    headers: registration.body.headers,
    body: bytes,
  });
  if (!put.ok) throw new Error(`storage PUT failed: ${put.status} ${await put.text()}`);
  return registration.body.document_id;
}

async function importedPriceList(
  tenant: BenchTenant,
  label: string,
  fileName: string,
  bytes: Buffer,
  mimeType: string,
) {
  const agreement = await tenant.call('/v1/agreements', {
    method: 'POST',
    body: { title: `Kontorrekvisita (${label})` },
  });
  const started = performance.now();
  const documentId = await uploadDocument(tenant, fileName, bytes, mimeType);
  const uploadSeconds = seconds(started);
  const importStarted = performance.now();
  const response = await tenant.call(`/v1/agreements/${agreement.body.id}/price-imports`, {
    method: 'POST',
    body: { entries: [{ document_id: documentId, default_currency: 'NOK' }] },
  });
  if (response.status !== 202) throw new Error(`price import: ${response.status} ${JSON.stringify(response.body)}`);
  const importId = response.body.data[0].id as string;
  for (;;) {
    const read = await tenant.call(`/v1/agreements/${agreement.body.id}/price-imports/${importId}`);
    if (read.body.status === 'completed')
      return {
        uploadSeconds,
        importSeconds: seconds(importStarted),
        totalSeconds: seconds(started),
        rows: read.body.rows,
      };
    if (read.body.status === 'failed' || read.body.status === 'cancelled')
      throw new Error(`price import ended ${read.body.status}: ${JSON.stringify(read.body.failure)}`);
    await sleep(200);
  }
}

// Best of three: the reader alone, without the worker's or the database's share.
async function readSeconds(bytes: Buffer, fileName: string): Promise<{ seconds: number; rows: number }> {
  let best = Infinity;
  let rows = 0;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    const result = await readPriceList({ bytes, fileName, defaultCurrency: 'NOK' });
    best = Math.min(best, seconds(started));
    rows = result.rows.length;
    if (!result.complete) throw new Error(`${fileName} did not read completely: ${result.failure?.message}`);
  }
  return { seconds: best, rows };
}

await withBenchStack('Price import benchmark', async ({ tenant }) => {
  const rows = priceRows();
  const files = [
    { label: 'XLSX', fileName: 'prisliste.xlsx', bytes: await xlsxOf(rows), mimeType: XLSX_MIME },
    { label: 'CSV', fileName: 'prisliste.csv', bytes: csvOf(rows), mimeType: 'text/csv' },
  ];
  const table: [string, string][] = [];
  for (const file of files) {
    const read = await readSeconds(file.bytes, file.fileName);
    const imported = await importedPriceList(tenant, file.label, file.fileName, file.bytes, file.mimeType);
    const { found, added, skipped, rejected } = imported.rows;
    if (found !== ROWS || read.rows !== ROWS)
      throw new Error(`${file.label}: expected ${ROWS} rows, the import found ${found}, the reader ${read.rows}`);
    table.push(
      [`${file.label}: file size`, `${(file.bytes.length / 1024).toFixed(0)} KiB`],
      [`${file.label}: rows found / added / skipped / rejected`, `${found} / ${added} / ${skipped} / ${rejected}`],
      [`${file.label}: upload (register + PUT)`, `${imported.uploadSeconds.toFixed(2)} s`],
      [
        `${file.label}: import (POST → completed)`,
        `${imported.importSeconds.toFixed(2)} s, ${(ROWS / imported.importSeconds).toFixed(0)} rows/s`,
      ],
      [
        `${file.label}: end to end (upload + import)`,
        `${imported.totalSeconds.toFixed(2)} s, ${(ROWS / imported.totalSeconds).toFixed(0)} rows/s`,
      ],
      [
        `${file.label}: readPriceList alone (best of 3)`,
        `${read.seconds.toFixed(2)} s, ${(ROWS / read.seconds).toFixed(0)} rows/s (${((100 * read.seconds) / imported.importSeconds).toFixed(0)}% of the import)`,
      ],
    );
  }
  printTable(`Price import benchmark (${ROWS} rows)`, table);
}).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
