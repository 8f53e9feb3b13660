import ExcelJS from 'exceljs';
import { crc32, deflateRawSync } from 'node:zlib';
import {
  readPriceList,
  type PriceListReadInput,
  type PriceListReadResult,
  type PriceListRow,
} from '../../../../src/agreements/price-lists/index.js';

// Price-list files built in memory, so every test shows the exact content it reads.

export async function readCsvText(
  text: string,
  options: Partial<PriceListReadInput> = {},
): Promise<PriceListReadResult> {
  return readPriceList({
    bytes: new TextEncoder().encode(text),
    fileName: 'prices.csv',
    defaultCurrency: 'NOK',
    ...options,
  });
}

export async function readWorkbook(
  workbook: ExcelJS.Workbook,
  options: Partial<PriceListReadInput> = {},
): Promise<PriceListReadResult> {
  return readPriceList({
    bytes: await xlsxBytes(workbook),
    fileName: 'prices.xlsx',
    defaultCurrency: 'EUR',
    ...options,
  });
}

export async function xlsxBytes(workbook: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A workbook with one sheet per entry, each filled with the rows given (null = empty cell). */
export function workbookOf(sheets: Record<string, ExcelJS.CellValue[][]>): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const worksheet = workbook.addWorksheet(name);
    rows.forEach((values, index) => {
      values.forEach((value, column) => {
        if (value !== null) worksheet.getCell(index + 1, column + 1).value = value;
      });
    });
  }
  return workbook;
}

/** The row with that number, failing loudly when it is not there. */
export function rowAt(result: PriceListReadResult, rowNumber: number, sheet?: string): PriceListRow {
  const row = result.rows.find(
    (candidate) => candidate.rowNumber === rowNumber && (sheet === undefined || candidate.sheet === sheet),
  );
  if (row === undefined)
    throw new Error(
      `no row ${rowNumber}${sheet ? ` in ${sheet}` : ''}; rows: ${result.rows.map((r) => `${r.sheet}:${r.rowNumber}`).join(', ')}`,
    );
  return row;
}

/** Outcome summary per row, for compact assertions: "5 accepted" / "7 rejected: no price". */
export function outcomes(result: PriceListReadResult): string[] {
  return result.rows.map((row) => `${row.rowNumber} ${row.outcome}${row.reason ? `: ${row.reason}` : ''}`);
}

// ---- a minimal zip writer, for hand-made XLSX files (hostile ones included) ----

export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
}

export function zipOf(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
    const compressed = deflateRawSync(data);
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** The smallest XLSX exceljs reads: one sheet given as its <sheetData> XML. */
export function handMadeXlsx(sheetDataXml: string, extraEntries: ZipEntry[] = []): Uint8Array {
  return zipOf([
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    },
    {
      name: 'xl/workbook.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        '<sheets><sheet name="Prices" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetDataXml}</sheetData></worksheet>`,
    },
    ...extraEntries,
  ]);
}

/** One <row> of inline-string and number cells, for handMadeXlsx. */
export function sheetRowXml(rowNumber: number, values: (string | number)[]): string {
  const cells = values.map((value, index) => {
    const ref = `${String.fromCharCode(65 + index)}${rowNumber}`;
    return typeof value === 'number'
      ? `<c r="${ref}"><v>${value}</v></c>`
      : `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  });
  return `<row r="${rowNumber}">${cells.join('')}</row>`;
}
