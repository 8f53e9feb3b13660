// npm run bench:extraction — how well the layout reader reads text-layer PDF invoices, and how fast.
// Corpus: test/fixtures/extraction-corpus/*.pdf with the ground truth beside each (*.json; made by
// scripts/corpus/generate-extraction-corpus.ts), and the Factur-X/ZUGFeRD PDFs of ../shared/samples
// read through their text layer as if their XML were absent, compared with that XML.
// Prints header fields exact %, lines exact % (every printed column), not_invoice refusals, and the
// p50 reading time of a 1-page PDF and the time of a 50-page one, against the issue's targets.
// The reading runs in this process (parsePdf, as the parser pool's helper runs it), pdf.js warm.
//   --corpus DIR   another corpus with the same layout (a held-out one)
//   --verbose      every mismatch
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parsePdf } from '../../src/invoices/parsing/pdf.js';
import { headerValue, lineValue, percentile, same } from './extraction-truth.js';
import { generateLongInvoice } from '../corpus/generate-extraction-corpus.js';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { corpus: { type: 'string' }, verbose: { type: 'boolean', default: false } } });
const corpusDir = values.corpus ?? path.join(root, 'test/fixtures/extraction-corpus');
const samplesDir = path.resolve(root, '../shared/samples/pdf-facturx');

interface Truth {
  layout: string;
  language: string;
  pages: number;
  header: Record<string, string | null>;
  lines: Array<Record<string, string | null>>;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await run();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

async function main() {
  if (!existsSync(corpusDir))
    throw new Error(`No corpus at ${corpusDir}: run npx tsx scripts/corpus/generate-extraction-corpus.ts`);
  const files = readdirSync(corpusDir)
    .filter((name) => name.endsWith('.pdf'))
    .sort();
  // Warm pdf.js once, as a warm parser pool helper is.
  await parsePdf(new Uint8Array(readFileSync(path.join(corpusDir, files[0] as string))));

  let headerTotal = 0;
  let headerExact = 0;
  let linesTotal = 0;
  let linesExact = 0;
  let refused = 0;
  let reviewed = 0;
  const onePage: number[] = [];
  const perField = new Map<string, { total: number; exact: number }>();
  const perLayout = new Map<string, { header: number; headerExact: number; lines: number; linesExact: number }>();
  const mismatches: string[] = [];
  for (const file of files) {
    const truth = JSON.parse(readFileSync(path.join(corpusDir, file.replace(/\.pdf$/, '.json')), 'utf8')) as Truth;
    const bytes = new Uint8Array(readFileSync(path.join(corpusDir, file)));
    const { value: outcome, ms } = await timed(() => parsePdf(bytes));
    if (truth.pages === 1) onePage.push(ms);
    const layout = perLayout.get(truth.layout) ?? { header: 0, headerExact: 0, lines: 0, linesExact: 0 };
    perLayout.set(truth.layout, layout);
    const headerKeys = Object.keys(truth.header);
    headerTotal += headerKeys.length;
    linesTotal += truth.lines.length;
    layout.header += headerKeys.length;
    layout.lines += truth.lines.length;
    for (const key of headerKeys) {
      const stats = perField.get(key) ?? { total: 0, exact: 0 };
      stats.total += 1;
      perField.set(key, stats);
    }
    if (outcome.kind !== 'invoice') {
      if (outcome.kind === 'not_invoice') refused += 1;
      mismatches.push(`${file}: ${outcome.kind} ${'reason' in outcome ? outcome.reason : outcome.message}`);
      continue;
    }
    const { invoice } = outcome;
    if (invoice.extraction.needsReview) reviewed += 1;
    for (const key of headerKeys) {
      const actual = headerValue(invoice, key);
      if (same(key, truth.header[key] ?? null, actual)) {
        headerExact += 1;
        layout.headerExact += 1;
        (perField.get(key) as { exact: number }).exact += 1;
      } else
        mismatches.push(`${file}: ${key} expected ${JSON.stringify(truth.header[key])} got ${JSON.stringify(actual)}`);
    }
    truth.lines.forEach((expected, index) => {
      const actual = invoice.lines[index];
      const wrong = actual
        ? Object.keys(expected).filter((key) => !same(key, expected[key] ?? null, lineValue(actual, key)))
        : ['(missing)'];
      if (wrong.length === 0) {
        linesExact += 1;
        layout.linesExact += 1;
      } else if (values.verbose || mismatches.filter((entry) => entry.startsWith(`${file}: line`)).length < 2) {
        mismatches.push(
          `${file}: line ${index + 1} ${wrong.map((key) => `${key} expected ${JSON.stringify(expected[key])} got ${JSON.stringify(actual ? lineValue(actual, key) : null)}`).join('; ')}`,
        );
      }
    });
    if (invoice.lines.length !== truth.lines.length)
      mismatches.push(`${file}: ${invoice.lines.length} lines read, ${truth.lines.length} printed`);
  }

  const long = await generateLongInvoice(2300);
  const longRun = await timed(() => parsePdf(new Uint8Array(long)));
  const longPages = longRun.value.kind === 'invoice' ? longRun.value.invoice.lines.length : 0;

  const facturx = await facturXComparison();

  const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`);
  console.log(`Corpus: ${files.length} invoices in ${perLayout.size} layouts (${corpusDir})`);
  console.log('');
  console.log(
    `header fields exact   ${pct(headerExact, headerTotal).padStart(8)}  (${headerExact}/${headerTotal})   target >= 97 %`,
  );
  console.log(
    `lines exact           ${pct(linesExact, linesTotal).padStart(8)}  (${linesExact}/${linesTotal})   target >= 95 %`,
  );
  console.log(`not_invoice refusals  ${String(refused).padStart(8)}  of ${files.length} invoices            target 0`);
  console.log(`marked for review     ${String(reviewed).padStart(8)}  of ${files.length}`);
  console.log(
    `1-page PDF p50        ${`${percentile(onePage, 0.5).toFixed(0)} ms`.padStart(8)}  (p90 ${percentile(onePage, 0.9).toFixed(0)} ms, ${onePage.length} PDFs)   target < 150 ms`,
  );
  console.log(
    `50-page PDF           ${`${longRun.ms.toFixed(0)} ms`.padStart(8)}  (${longPages} of 2300 lines read)   target < 5000 ms`,
  );
  console.log('');
  console.log('per field:');
  for (const [key, stats] of [...perField.entries()].sort())
    console.log(`  ${key.padEnd(22)} ${pct(stats.exact, stats.total).padStart(8)}  (${stats.exact}/${stats.total})`);
  console.log('per layout (header / lines):');
  for (const [name, stats] of [...perLayout.entries()].sort())
    console.log(
      `  ${name.padEnd(12)} ${pct(stats.headerExact, stats.header).padStart(8)}  ${pct(stats.linesExact, stats.lines).padStart(8)}`,
    );
  console.log('');
  console.log(
    `Factur-X/ZUGFeRD text layers against their XML (${facturx.files} PDFs): header fields ${pct(facturx.headerExact, facturx.headerTotal)} (${facturx.headerExact}/${facturx.headerTotal}), line amounts ${pct(facturx.linesExact, facturx.linesTotal)} (${facturx.linesExact}/${facturx.linesTotal})`,
  );
  if (mismatches.length > 0) {
    console.log('');
    console.log(`mismatches (${mismatches.length}${values.verbose ? '' : ', first 60; --verbose for all'}):`);
    for (const line of values.verbose ? mismatches : mismatches.slice(0, 60)) console.log(`  ${line}`);
  }
}

/** The XML is the truth; the fields a reader sees printed on these PDFs are compared. */
async function facturXComparison() {
  const result = { files: 0, headerTotal: 0, headerExact: 0, linesTotal: 0, linesExact: 0 };
  if (!existsSync(samplesDir)) return result;
  const keys = [
    'invoiceNumber',
    'issueDate',
    'currencyCode',
    'totals.taxExclusive',
    'totals.vatTotal',
    'totals.taxInclusive',
    'totals.payable',
  ];
  for (const file of readdirSync(samplesDir).filter((name) => name.endsWith('.pdf'))) {
    const bytes = new Uint8Array(readFileSync(path.join(samplesDir, file)));
    const xml = await parsePdf(bytes);
    const text = await parsePdf(bytes, { ignoreEmbeddedXml: true });
    if (xml.kind !== 'invoice') continue;
    result.files += 1;
    for (const key of keys) {
      const expected = headerValue(xml.invoice, key);
      if (expected === null) continue;
      result.headerTotal += 1;
      // Credit notes print negative amounts where the XML writes positive ones (the type says credit).
      const read = text.kind === 'invoice' ? headerValue(text.invoice, key) : null;
      const unsigned =
        xml.invoice.documentType === 'credit_note' && read !== null && key.startsWith('totals.')
          ? read.replace(/^-/u, '')
          : read;
      if (text.kind === 'invoice' && same(key, expected, unsigned)) result.headerExact += 1;
      else if (values.verbose)
        console.log(
          `  factur-x ${file}: ${key} expected ${expected} got ${text.kind === 'invoice' ? headerValue(text.invoice, key) : text.kind}`,
        );
    }
    xml.invoice.lines.forEach((line, index) => {
      result.linesTotal += 1;
      const read = text.kind === 'invoice' ? text.invoice.lines[index] : undefined;
      if (read && same('netAmount', line.netAmount, read.netAmount?.replace(/^-/u, '') ?? null)) result.linesExact += 1;
    });
  }
  return result;
}

await main();
