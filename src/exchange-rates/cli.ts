import { readFile } from 'node:fs/promises';
import JSZip from 'jszip';
import { createDb } from '../db/client.js';
import { defaultDatabaseUrl } from '../infra/defaults.js';
import { parseRateFile } from './formats.js';
import { storeRates } from './store.js';

// npm run rates:load -- <file or URL> [...]: loads central bank rate files (ECB eurofxref CSV or
// its ZIP, Norges Bank EXR CSV) into the rates table the checks convert prices with.
// Uses DATABASE_URL, or the embedded development database of 'npm start'. See
// docs/exchange-rates.md for the sources' addresses.

async function bytesOf(source: string): Promise<Buffer> {
  if (!/^https?:\/\//.test(source)) return readFile(source);
  const response = await fetch(source);
  if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

async function textOf(source: string): Promise<string> {
  const bytes = await bytesOf(source);
  if (bytes.subarray(0, 2).toString('latin1') !== 'PK') return bytes.toString('utf8');
  const zip = await JSZip.loadAsync(bytes);
  const csv = Object.values(zip.files).find((file) => !file.dir && file.name.toLowerCase().endsWith('.csv'));
  if (!csv) throw new Error(`${source}: the ZIP holds no CSV file`);
  return csv.async('string');
}

async function main(sources: string[]): Promise<void> {
  if (sources.length === 0) throw new Error('Usage: npm run rates:load -- <file or URL> [...]');
  const db = createDb(process.env.DATABASE_URL ?? defaultDatabaseUrl(), 2);
  try {
    for (const source of sources) {
      const { format, rows } = parseRateFile(await textOf(source));
      const stored = await storeRates(db, rows);
      const days = new Set(rows.map((row) => row.date));
      process.stdout.write(`${JSON.stringify({ source, format, rates: stored, days: days.size })}\n`);
    }
  } finally {
    await db.$disconnect();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
