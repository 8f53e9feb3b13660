import { parse, type CsvError, type Options } from 'csv-parse/sync';
import { findHeaderRow, headerScore } from './columns.js';
import { decodeText, type TextEncodingName } from './encoding.js';
import { LIMITS, type SourceRow, type SourceSheet } from './model.js';

export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

export interface CsvReading {
  sheet: SourceSheet;
  delimiter: CsvDelimiter;
  encoding: TextEncodingName;
}

// Enough of the file to see the header and the shape of the first rows.
const SAMPLE_CHARS = 64 * 1024;
const MAX_RECORDS = LIMITS.maxDataRows + LIMITS.headerScanRows + 1;

/** A CSV as one sheet of text cells; a broken stretch (e.g. a quote never closed) is a problem, not a failure. */
export function readCsv(bytes: Uint8Array, sheetName: string): CsvReading {
  const { text, encoding } = decodeText(bytes);
  const delimiter = detectDelimiter(text);
  const { rows, problems } = parseRecords(text, delimiter, MAX_RECORDS);
  return { sheet: { name: sheetName, label: 'the file', rows, problems }, delimiter, encoding };
}

/** The delimiter under which the file has the best header row; ties go to the most regular column count. */
export function detectDelimiter(text: string): CsvDelimiter {
  const sample =
    text.length > SAMPLE_CHARS ? text.slice(0, text.lastIndexOf('\n', SAMPLE_CHARS) + 1 || SAMPLE_CHARS) : text;
  let best: CsvDelimiter = ',';
  let bestScore = -1;
  for (const delimiter of CSV_DELIMITERS) {
    const { rows } = parseRecords(sample, delimiter, LIMITS.headerScanRows * 2);
    const score = delimiterScore(rows);
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

function delimiterScore(rows: SourceRow[]): number {
  const texts = rows
    .map((row) => row.cells.map((cell) => cell?.text ?? ''))
    .filter((cells) => cells.some((text) => text.trim() !== ''));
  const header = findHeaderRow(texts.slice(0, LIMITS.headerScanRows));
  const headerPoints = header === null ? 0 : headerScore(header.mapping);
  return headerPoints * 1000 + regularity(texts.map((cells) => cells.length));
}

// How many rows share the most common width (counting only widths above one column).
function regularity(widths: number[]): number {
  const counts = new Map<number, number>();
  for (const width of widths) if (width > 1) counts.set(width, (counts.get(width) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

interface Skipped {
  /** How many records came before the unreadable stretch. */
  atRecord: number;
  error: CsvError | undefined;
}

function parseRecords(
  text: string,
  delimiter: CsvDelimiter,
  maxRows: number,
): { rows: SourceRow[]; problems: string[] } {
  const skipped: Skipped[] = [];
  const options: Options = {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false, // blank lines stay records, so line numbers can be counted
    skip_records_with_error: true,
    on_skip: (error) => {
      skipped.push({ atRecord: recordCount(error), error: error ?? undefined });
    },
  };
  let records: string[][];
  try {
    records = parse(text, options);
  } catch (error) {
    return { rows: [], problems: [unreadableStretch(1, error as CsvError)] };
  }
  return numberRows(records, skipped, maxRows);
}

// csv-parse's per-record context (on_record, info) costs more than the parse itself on large
// files, so line numbers are counted here: a record spans one line plus the line breaks inside
// its quoted fields.
function numberRows(
  records: string[][],
  skipped: Skipped[],
  maxRows: number,
): { rows: SourceRow[]; problems: string[] } {
  const rows: SourceRow[] = [];
  const problems: string[] = [];
  let line = 1;
  let nextSkip = 0;
  const reportSkipsBefore = (recordIndex: number) => {
    for (; nextSkip < skipped.length && skipped[nextSkip]!.atRecord <= recordIndex; nextSkip++) {
      const { error } = skipped[nextSkip]!;
      problems.push(unreadableStretch(line, error));
      line = Math.max(line, (errorLine(error) ?? line - 1) + 1);
    }
  };
  records.forEach((record, index) => {
    reportSkipsBefore(index);
    const blank = record.every((text) => text.trim() === '');
    if (!blank && rows.length < maxRows)
      rows.push({ rowNumber: line, cells: record.map((text) => (text === '' ? undefined : { text })) });
    line += 1 + record.reduce((breaks, text) => breaks + lineBreaks(text), 0);
  });
  reportSkipsBefore(Number.POSITIVE_INFINITY);
  return { rows, problems };
}

function lineBreaks(text: string): number {
  return text.includes('\n') || text.includes('\r') ? (text.match(/\r\n|\r|\n/g)?.length ?? 0) : 0;
}

function recordCount(error: CsvError | null | undefined): number {
  return typeof error?.records === 'number' ? error.records : Number.POSITIVE_INFINITY;
}

function unreadableStretch(line: number, error: CsvError | undefined): string {
  if (error?.code === 'CSV_QUOTE_NOT_CLOSED')
    return `line ${line}: a quoted field is never closed, so the file from line ${line} on could not be read`;
  const lastLine = errorLine(error);
  const lines = lastLine !== undefined && lastLine > line ? `lines ${line}-${lastLine}` : `line ${line}`;
  return `${lines} could not be read${error?.message ? ` (${error.message})` : ''}`;
}

// csv-parse puts the parser's context on its errors; `lines` is the last line it had read.
function errorLine(error: CsvError | undefined): number | undefined {
  return typeof error?.lines === 'number' ? error.lines : undefined;
}
