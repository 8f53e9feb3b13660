/**
 * XLSX via exceljs: every row with content becomes a line "cell | cell | cell"; each worksheet
 * is its own paragraph so passages name the sheet they come from.
 *
 * exceljs expands cell ranges cell by cell in several places (merged cells, data validations,
 * column ranges, defined names): one range such as A1:XFD1048576 in a 7 KB file filled a 4 GB
 * heap, ending the process, or ran for minutes. Those parts carry no text and are never parsed.
 */
import type ExcelJsApi from 'exceljs';
import type { CellValue, Row, Worksheet } from 'exceljs';
import JSZip from 'jszip';
import type { Deadline, ExtractionLimits } from './limits.js';
import type { DocumentTextBuilder } from './passages.js';
import { cellsToLine } from './text.js';
import { assertSafeArchive, type ZipEntry } from './zip.js';

type ExcelJs = typeof ExcelJsApi;
let excelJsModule: Promise<ExcelJs> | undefined;

function loadExcelJs(): Promise<ExcelJs> {
  excelJsModule ??= import('exceljs').then((module) => module.default);
  return excelJsModule;
}

/** Worksheet elements exceljs skips when asked: none holds cell text. */
const IGNORED_WORKSHEET_NODES = [
  'cols',
  'dataValidations',
  'conditionalFormatting',
  'mergeCells',
  'hyperlinks',
  'autoFilter',
  'drawing',
  'picture',
  'tableParts',
  'rowBreaks',
  'sheetProtection',
  'pageSetup',
  'pageMargins',
  'headerFooter',
  'printOptions',
];
/** exceljs reads the workbook part from this fixed path. */
const WORKBOOK_PART = 'xl/workbook.xml';
const DEFINED_NAMES = 'definedNames';
/** Excel's last row; rows numbered beyond it are invalid, and counting up to them would take minutes. */
const EXCEL_MAX_ROWS = 1_048_576;
/** How often the row loop looks at the clock. */
const ROWS_PER_DEADLINE_CHECK = 1024;

export async function extractXlsx(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  builder: DocumentTextBuilder,
  limits: ExtractionLimits,
  deadline: Deadline,
): Promise<void> {
  assertSafeArchive(bytes, entries, limits);
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  // exceljs types its input as an ArrayBuffer (its own "Buffer"); a fresh copy gives exactly that.
  await workbook.xlsx.load(new Uint8Array(await withoutDefinedNames(bytes)).buffer, {
    ignoreNodes: IGNORED_WORKSHEET_NODES,
  });
  for (const worksheet of workbook.worksheets) {
    const lines = sheetLines(worksheet, builder.remaining, deadline);
    if (!builder.add({ text: lines.join('\n'), page: null, sheet: worksheet.name, lineOriented: true })) return;
    if (deadline.expired()) return builder.markTruncated();
  }
}

/** The archive with the workbook's defined names removed; unchanged parts keep their compressed bytes. */
async function withoutDefinedNames(bytes: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const workbookXml = await zip.file(WORKBOOK_PART)?.async('string');
  if (workbookXml === undefined) return bytes;
  const stripped = removeDefinedNames(workbookXml);
  if (stripped === workbookXml) return bytes;
  zip.file(WORKBOOK_PART, stripped);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const WORD_CHAR = /^\w$/;

/** Where the tag whose (optionally prefixed) name ends just before `nameAt` opens, after `opener` ("<" or "</"); -1 if it does not. */
function tagOpening(xml: string, nameAt: number, opener: string): number {
  if (xml.startsWith(opener, nameAt - opener.length)) return nameAt - opener.length;
  if (xml[nameAt - 1] !== ':') return -1;
  let prefixStart = nameAt - 1;
  while (prefixStart > 0 && WORD_CHAR.test(xml[prefixStart - 1]!)) prefixStart -= 1;
  if (prefixStart === nameAt - 1) return -1;
  return xml.startsWith(opener, prefixStart - opener.length) ? prefixStart - opener.length : -1;
}

/**
 * Defined names (print areas, named ranges) cannot be skipped through exceljs options, so their
 * elements (`<definedNames .../>`, `<x:definedNames>...</x:definedNames>`) are cut out of the
 * workbook part. Scanned once, because the regular expression that did this re-read the rest of
 * the part from every opening tag that was not closed.
 */
export function removeDefinedNames(xml: string): string {
  let result = '';
  let copiedTo = 0;
  let closingSearchFailed = false;
  const nextTagEnd = memoizedIndexOf(xml, '>');
  let at = xml.indexOf(DEFINED_NAMES);
  while (at !== -1) {
    const nameEnd = at + DEFINED_NAMES.length;
    const start = WORD_CHAR.test(xml[nameEnd] ?? ' ') ? -1 : tagOpening(xml, at, '<');
    const end =
      start === -1 || start < copiedTo ? -1 : elementEnd(xml, nameEnd, nextTagEnd(nameEnd), closingSearchFailed);
    if (end === null) closingSearchFailed = true;
    if (typeof end === 'number' && end !== -1) {
      result += xml.slice(copiedTo, start);
      copiedTo = end;
    }
    at = xml.indexOf(DEFINED_NAMES, Math.max(nameEnd, copiedTo));
  }
  return result + xml.slice(copiedTo);
}

/** `text.indexOf(needle, from)` for ascending `from`, each part of the text searched once. */
function memoizedIndexOf(text: string, needle: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found === -1 || found >= from) return found;
    found = text.indexOf(needle, from);
    return found;
  };
}

/** The end of a definedNames element whose name ends at `nameEnd`; -1 if it has none; null when no closing tag follows at all. */
function elementEnd(xml: string, nameEnd: number, tagEnd: number, closingSearchFailed: boolean): number | null {
  if (tagEnd !== -1 && xml[tagEnd - 1] === '/') return tagEnd + 1;
  if (closingSearchFailed) return -1;
  const closingName = `${DEFINED_NAMES}>`;
  for (let close = xml.indexOf(closingName, nameEnd); close !== -1; close = xml.indexOf(closingName, close + 1)) {
    if (tagOpening(xml, close, '</') !== -1) return close + closingName.length;
  }
  return null;
}

/** Row lines until they hold more characters than the builder can still take, or time runs out. */
function sheetLines(worksheet: Worksheet, characterBudget: number, deadline: Deadline): string[] {
  const lines: string[] = [];
  let characters = 0;
  const lastRow = Math.min(worksheet.rowCount, EXCEL_MAX_ROWS);
  for (let rowNumber = 1; rowNumber <= lastRow && characters <= characterBudget; rowNumber += 1) {
    if (rowNumber % ROWS_PER_DEADLINE_CHECK === 0 && deadline.expired()) break;
    const row = worksheet.findRow(rowNumber);
    const line = row ? rowLine(row) : '';
    if (line === '') continue;
    lines.push(line);
    characters += line.length + 1;
  }
  return lines;
}

function rowLine(row: Row): string {
  const cells: string[] = [];
  row.eachCell((cell) => {
    cells.push(cellText(cell.value));
  });
  return cellsToLine(cells);
}

/** What the cell shows, as far as it can be known without applying number formats. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return formatDate(value);
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText(value.result);
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text);
  if ('error' in value) return value.error;
  return '';
}

/** Excel dates carry no zone; exceljs gives them as UTC midnight, so the UTC date is the one shown. */
function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}
