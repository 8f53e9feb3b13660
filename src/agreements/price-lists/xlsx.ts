import ExcelJS from 'exceljs';
import { currencyInNumberFormat } from './currency.js';
import { dateFromExcel } from './dates.js';
import { LIMITS, type PriceListFailure, type SourceCell, type SourceRow, type SourceSheet } from './model.js';
import { decimalFromExcelNumber } from './numbers.js';
import { checkZip } from './zip.js';

export type XlsxReading =
  { ok: true; sheets: SourceSheet[]; problems: string[] } | { ok: false; failure: PriceListFailure };

// Rows kept per sheet: enough to find the header and to notice the data-row limit was passed.
const MAX_ROWS_PER_SHEET = LIMITS.maxDataRows + LIMITS.headerScanRows + 1;

/** The worksheets of an XLSX (all, or those named), as rows of decoded cells. */
export async function readXlsx(bytes: Uint8Array, worksheetNames: string[] | undefined): Promise<XlsxReading> {
  const zip = checkZip(bytes);
  if (!zip.ok) return zip;
  const notWorkbook = notAnExcelWorkbook(zip.entryNames);
  if (notWorkbook !== null) return { ok: false, failure: notWorkbook };
  const workbook = await loadWorkbook(bytes);
  if (!(workbook instanceof ExcelJS.Workbook)) return { ok: false, failure: workbook };
  const { worksheets, problems } = selectWorksheets(workbook, worksheetNames);
  return { ok: true, sheets: worksheets.map(readWorksheet), problems };
}

function notAnExcelWorkbook(entryNames: string[]): PriceListFailure | null {
  if (entryNames.includes('xl/workbook.xml')) return null;
  if (entryNames.includes('content.xml') && entryNames.includes('mimetype')) {
    return {
      code: 'unsupported_format',
      message: 'this is an OpenDocument spreadsheet (.ods); save it as .xlsx or CSV',
    };
  }
  return { code: 'unsupported_format', message: 'this is a zip file but not an Excel workbook' };
}

async function loadWorkbook(bytes: Uint8Array): Promise<ExcelJS.Workbook | PriceListFailure> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as its own Buffer stand-in; a Node Buffer is what it reads.
    await workbook.xlsx.load(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as Parameters<ExcelJS.Xlsx['load']>[0],
    );
    return workbook;
  } catch (error) {
    return {
      code: 'unreadable',
      message: 'the workbook could not be read: it may be damaged, or saved in a format other than .xlsx',
    };
  }
}

function selectWorksheets(
  workbook: ExcelJS.Workbook,
  names: string[] | undefined,
): { worksheets: ExcelJS.Worksheet[]; problems: string[] } {
  if (names === undefined || names.length === 0) return { worksheets: workbook.worksheets, problems: [] };
  const worksheets: ExcelJS.Worksheet[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const found = findWorksheet(workbook, name);
    if (found === undefined)
      problems.push(
        `worksheet '${name}' was not found; the workbook has ${workbook.worksheets.map((sheet) => `'${sheet.name}'`).join(', ')}`,
      );
    else if (!worksheets.includes(found)) worksheets.push(found);
  }
  return { worksheets, problems };
}

// Exact name first; then ignoring case and surrounding spaces, since users type sheet names by hand.
function findWorksheet(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet | undefined {
  const loose = (text: string) => text.trim().toLowerCase();
  return (
    workbook.worksheets.find((sheet) => sheet.name === name) ??
    workbook.worksheets.find((sheet) => loose(sheet.name) === loose(name))
  );
}

function readWorksheet(worksheet: ExcelJS.Worksheet): SourceSheet {
  const rows: SourceRow[] = [];
  worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rows.length >= MAX_ROWS_PER_SHEET) return;
    const cells: (SourceCell | undefined)[] = [];
    row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
      // A merged range holds its value in the top-left cell only, as in Excel itself.
      if (cell.type === ExcelJS.ValueType.Merge) return;
      cells[columnNumber - 1] = sourceCell(cell.value, cell.numFmt);
    });
    rows.push({ rowNumber, cells });
  });
  return { name: worksheet.name, label: `sheet '${worksheet.name}'`, rows, problems: [] };
}

/** Cell value as exceljs gives it -> our cell: numbers exact, dates as calendar days, formulas by result. */
export function sourceCell(
  value: ExcelJS.CellValue | undefined,
  numberFormat: string | undefined,
): SourceCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return numberCell(value, numberFormat);
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE' };
  if (value instanceof Date) return dateCell(value);
  if ('richText' in value) return { text: value.richText.map((run) => run.text).join('') };
  if ('formula' in value || 'sharedFormula' in value) return formulaCell(value, numberFormat);
  if ('error' in value) return { text: String(value.error) };
  if ('hyperlink' in value) return sourceCell(value.text, numberFormat); // its text may be rich text
  return { text: String(value) };
}

function numberCell(value: number, numberFormat: string | undefined): SourceCell {
  const number = decimalFromExcelNumber(value);
  if (number === null) return { text: String(value) };
  const cell: SourceCell = { text: number.toFixed(), number };
  if (numberFormat !== undefined && /%/.test(numberFormat.replace(/"[^"]*"/g, ''))) cell.percentFormat = true;
  const currency = currencyInNumberFormat(numberFormat);
  if (currency !== null) cell.formatCurrency = currency;
  return cell;
}

function dateCell(value: Date): SourceCell {
  const date = dateFromExcel(value);
  if (date === null) return { text: '' };
  const time = value.toISOString().slice(11, 16);
  return { text: time === '00:00' ? date : `${date} ${time}`, date };
}

function formulaCell(
  value: ExcelJS.CellFormulaValue | ExcelJS.CellSharedFormulaValue,
  numberFormat: string | undefined,
): SourceCell {
  const result = value.result;
  const resultCell = result === undefined || result === null ? undefined : sourceCell(result, numberFormat);
  if (resultCell !== undefined) return resultCell;
  const formula =
    'formula' in value && value.formula ? value.formula : (value as ExcelJS.CellSharedFormulaValue).sharedFormula;
  return { text: `=${formula}`, formulaWithoutResult: true };
}
