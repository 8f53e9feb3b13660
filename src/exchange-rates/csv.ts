import { parse, CsvError } from 'csv-parse/sync';
import { RateFileError } from './model.js';

export type Delimiter = ',' | ';';

export interface CsvRecord {
  /** 1-based line in the file where the record ends (records here never span lines). */
  line: number;
  cells: string[];
}

/** Every non-blank record with its line number, cells trimmed; a broken file becomes a RateFileError. */
export function readRecords(text: string, delimiter: Delimiter): CsvRecord[] {
  try {
    const records = parse(text, {
      delimiter,
      bom: true,
      trim: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true, // whitespace-only or ",,,," lines carry nothing
    }) as unknown as { info: { lines: number }; record: string[] }[];
    return records.map(({ info, record }) => ({ line: info.lines, cells: record }));
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? error.lines : null;
      throw new RateFileError(`The file is not valid CSV: ${error.message}`, line);
    }
    throw error;
  }
}

/** The first non-blank line, without a byte order mark. */
export function firstLine(text: string): string {
  const withoutBom = text.startsWith('\ufeff') ? text.slice(1) : text;
  return withoutBom.split(/\r?\n/, 64).find((line) => line.trim() !== '') ?? '';
}

/** Norges Bank writes ';' by default; a re-saved or `csv` export with commas has no semicolon in its header. */
export function headerDelimiter(text: string): Delimiter {
  return firstLine(text).includes(';') ? ';' : ',';
}

/** The header line's cells, read by the CSV parser (so quoted names work too). */
export function headerCells(text: string, delimiter: Delimiter): string[] {
  const line = firstLine(text);
  if (line === '') return [];
  try {
    const [record] = parse(line, { delimiter, trim: true, relax_column_count: true, relax_quotes: true });
    return record ?? [];
  } catch {
    return [];
  }
}
