// npm run bench:ocr — how well scanned (image-only) PDF invoices are read, and how fast.
// Corpus: test/fixtures/scan-corpus/*.pdf with the ground truth beside each (*.json; made by
// scripts/corpus/generate-scan-corpus.ts from the extraction corpus: 150-200 dpi, rotated
// 0.5-2°, noise and specks). Each scan is read as the worker reads it (parseInvoiceDocument:
// the text attempt, then OCR page by page in the parser pool's helpers) and compared with its
// ground truth. The `scans` section prints header fields exact %, lines exact % (every column)
// against the issue's targets, and the time per scanned page: wall-clock p50/p90 and the CPU time
// of this process and its helpers (pdftoppm and tesseract included). Beside it, the same invoices'
// text-layer PDFs read by the same layout reader, so OCR's share of the misses shows.
//   --corpus DIR   another corpus with the same layout (a held-out one)
//   --source DIR   the text-layer PDFs the scans were made from (default: the extraction corpus)
//   --helpers N    parser pool helpers (default 2, one per core as the worker runs)
//   --verbose      every mismatch
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseInvoiceDocument } from '../../src/invoices/parsing/index.js';
import type { ParseOutcome } from '../../src/invoices/parsing/model.js';
import { headerValue, lineValue, percentile, same } from './extraction-truth.js';
import { closeIsolation, configureIsolation } from '../../src/shared/isolated.js';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    source: { type: 'string' },
    helpers: { type: 'string', default: '2' },
    verbose: { type: 'boolean', default: false },
  },
});
const corpusDir = values.corpus ?? path.join(root, 'test/fixtures/scan-corpus');
const sourceDir = values.source ?? path.join(root, 'test/fixtures/extraction-corpus');

interface Truth {
  layout: string;
  language: string;
  header: Record<string, string | null>;
  lines: Array<Record<string, string | null>>;
  scan?: { source: string; dpi: number; rotation: number; noise: number; bilevel: boolean };
}

/** CPU ms of this process and every process under it (the pool's helpers, their pdftoppm and tesseract). */
function treeCpuMs(pid = process.pid): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop() as number;
    try {
      const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / 100;
      for (const task of readdirSync(`/proc/${current}/task`)) {
        for (const child of readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').split(' '))
          if (child.trim() !== '') pending.push(Number(child));
      }
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

interface Tally {
  header: number;
  headerExact: number;
  lines: number;
  linesExact: number;
}

function score(
  outcome: ParseOutcome,
  truth: Truth,
  tally: Tally,
  label: string,
  mismatches: string[] | null,
  perField?: Map<string, Tally>,
): void {
  const keys = Object.keys(truth.header);
  tally.header += keys.length;
  tally.lines += truth.lines.length;
  for (const key of keys) {
    const stats = perField?.get(key) ?? { header: 0, headerExact: 0, lines: 0, linesExact: 0 };
    stats.header += 1;
    perField?.set(key, stats);
  }
  if (outcome.kind !== 'invoice') {
    mismatches?.push(`${label}: ${outcome.kind} ${'reason' in outcome ? outcome.reason : outcome.message}`);
    return;
  }
  const { invoice } = outcome;
  for (const key of keys) {
    const actual = headerValue(invoice, key);
    if (same(key, truth.header[key] ?? null, actual)) {
      tally.headerExact += 1;
      const stats = perField?.get(key);
      if (stats) stats.headerExact += 1;
    } else
      mismatches?.push(`${label}: ${key} expected ${JSON.stringify(truth.header[key])} got ${JSON.stringify(actual)}`);
  }
  let shown = 0;
  truth.lines.forEach((expected, index) => {
    const actual = invoice.lines[index];
    const wrong = actual
      ? Object.keys(expected).filter((key) => !same(key, expected[key] ?? null, lineValue(actual, key)))
      : ['(missing)'];
    if (wrong.length === 0) tally.linesExact += 1;
    else if (mismatches && (values.verbose || shown++ < 3)) {
      mismatches.push(
        `${label}: line ${index + 1} ${wrong.map((key) => `${key} expected ${JSON.stringify(expected[key])} got ${JSON.stringify(actual ? lineValue(actual, key) : null)}`).join('; ')}`,
      );
    }
  });
  if (invoice.lines.length !== truth.lines.length)
    mismatches?.push(`${label}: ${invoice.lines.length} lines read, ${truth.lines.length} printed`);
}

async function main() {
  if (!existsSync(corpusDir))
    throw new Error(`No scan corpus at ${corpusDir}: run npx tsx scripts/corpus/generate-scan-corpus.ts`);
  configureIsolation({ helpers: Number(values.helpers) });
  const files = readdirSync(corpusDir)
    .filter((name) => name.endsWith('.pdf'))
    .sort();
  const loadBefore = os.loadavg()[0] ?? 0;
  // Warm the pool as a running worker's is: helpers started, the OCR module loaded.
  await parseInvoiceDocument({ bytes: new Uint8Array(readFileSync(path.join(corpusDir, files[0] as string))) });

  const scans: Tally = { header: 0, headerExact: 0, lines: 0, linesExact: 0 };
  const texts: Tally = { header: 0, headerExact: 0, lines: 0, linesExact: 0 };
  const perField = new Map<string, Tally>();
  const perPageWall: number[] = [];
  const perPageCpu: number[] = [];
  const mismatches: string[] = [];
  const rows: string[] = [];
  let pages = 0;
  let reviewed = 0;
  let refused = 0;
  for (const file of files) {
    const truth = JSON.parse(readFileSync(path.join(corpusDir, file.replace(/\.pdf$/, '.json')), 'utf8')) as Truth;
    const bytes = new Uint8Array(readFileSync(path.join(corpusDir, file)));
    const cpuBefore = treeCpuMs();
    const started = performance.now();
    const outcome = await parseInvoiceDocument({ bytes });
    const wall = performance.now() - started;
    const cpu = treeCpuMs() - cpuBefore;
    const pageCount =
      outcome.kind === 'invoice' ? Number(/\((\d+) of (\d+) page/u.exec(outcome.warnings[0] ?? '')?.[2] ?? 1) : 1;
    pages += pageCount;
    for (let page = 0; page < pageCount; page += 1) {
      perPageWall.push(wall / pageCount);
      perPageCpu.push(cpu / pageCount);
    }
    if (outcome.kind === 'not_invoice') refused += 1;
    if (outcome.kind === 'invoice' && outcome.invoice.extraction.needsReview) reviewed += 1;
    const before = { ...scans };
    score(outcome, truth, scans, file, mismatches, perField);
    rows.push(
      `  ${file.padEnd(34)} ${`${scans.headerExact - before.headerExact}/${scans.header - before.header}`.padStart(6)} ${`${scans.linesExact - before.linesExact}/${scans.lines - before.lines}`.padStart(6)}  ${(wall / 1000).toFixed(1).padStart(5)} s ${(cpu / 1000).toFixed(1).padStart(5)} s cpu  ${outcome.kind === 'invoice' ? `${outcome.invoice.extraction.method}, confidence ${outcome.invoice.extraction.confidence?.overall ?? '-'}${outcome.invoice.extraction.needsReview ? ', review' : ''}` : outcome.kind}`,
    );
    const source = truth.scan?.source ? path.join(sourceDir, truth.scan.source) : null;
    if (source && existsSync(source))
      score(
        await parseInvoiceDocument({ bytes: new Uint8Array(readFileSync(source)) }),
        truth,
        texts,
        `text ${truth.scan?.source}`,
        null,
      );
  }
  closeIsolation();

  const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`Scan corpus: ${files.length} scanned invoices, ${pages} pages (${corpusDir})`);
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} before and ${(os.loadavg()[0] ?? 0).toFixed(1)} after; parser pool of ${values.helpers} helpers`,
  );
  console.log('');
  console.log('scans');
  console.log(
    `  header fields exact   ${pct(scans.headerExact, scans.header).padStart(8)}  (${scans.headerExact}/${scans.header})   target >= 90 %`,
  );
  console.log(
    `  lines exact           ${pct(scans.linesExact, scans.lines).padStart(8)}  (${scans.linesExact}/${scans.lines})   target >= 85 %`,
  );
  console.log(`  not_invoice refusals  ${String(refused).padStart(8)}  of ${files.length}            target 0`);
  console.log(`  marked for review     ${String(reviewed).padStart(8)}  of ${files.length}`);
  console.log(
    `  time per scanned page ${seconds(percentile(perPageWall, 0.5)).padStart(8)}  p50 wall clock (p90 ${seconds(percentile(perPageWall, 0.9))}); CPU p50 ${seconds(percentile(perPageCpu, 0.5))} (p90 ${seconds(percentile(perPageCpu, 0.9))})   target < 3 s`,
  );
  console.log(
    `  the same invoices' text-layer PDFs, same reader: header fields ${pct(texts.headerExact, texts.header)}, lines ${pct(texts.linesExact, texts.lines)}`,
  );
  console.log('');
  console.log('per scan (header, lines, wall clock, CPU):');
  for (const row of rows) console.log(row);
  console.log('per field:');
  for (const [key, stats] of [...perField.entries()].sort())
    console.log(
      `  ${key.padEnd(22)} ${pct(stats.headerExact, stats.header).padStart(8)}  (${stats.headerExact}/${stats.header})`,
    );
  if (mismatches.length > 0) {
    console.log('');
    console.log(
      `mismatches (${mismatches.length}${values.verbose ? '' : ', at most 3 lines per scan; --verbose for all'}):`,
    );
    for (const line of mismatches) console.log(`  ${line}`);
  }
}

await main();
