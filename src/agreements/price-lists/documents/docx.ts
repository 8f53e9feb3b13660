/**
 * DOCX price lists: mammoth's HTML output keeps a Word table's cells as cells (its raw text
 * would flatten them into paragraphs). Each table is a sheet named "Table 1", "Table 2", ...
 * (`worksheets` selects them by that name or by the heading just above the table); the text
 * outside the tables may name the document's currency. mammoth never reads files outside the
 * archive, and images are dropped rather than inlined.
 */
import type mammothApi from 'mammoth';
import { SaxesParser } from 'saxes';
import type { PriceListFailure, SourceRow, SourceSheet } from '../model.js';
import { checkZip } from '../zip.js';

type Mammoth = typeof mammothApi;
let mammothModule: Promise<Mammoth> | undefined;

function loadMammoth(): Promise<Mammoth> {
  mammothModule ??= import('mammoth').then((module) => module.default);
  return mammothModule;
}

export interface DocxTable {
  sheet: SourceSheet;
  /** The paragraph just above the table (its caption or heading), if any. */
  caption: string | null;
}

export type DocxReading =
  { ok: true; tables: DocxTable[]; outsideText: string[] } | { ok: false; failure: PriceListFailure };

export async function readDocxTables(bytes: Uint8Array): Promise<DocxReading> {
  const zip = checkZip(bytes);
  if (!zip.ok)
    return { ok: false, failure: { ...zip.failure, message: zip.failure.message.replace('workbook', 'document') } };
  const mammoth = await loadMammoth();
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
    );
    html = result.value;
  } catch (error) {
    return {
      ok: false,
      failure: {
        code: 'unreadable',
        message: 'the Word document could not be read: it may be damaged, or not a .docx file',
      },
    };
  }
  return { ok: true, ...tablesOfHtml(html) };
}

interface OpenTable {
  rows: SourceRow[];
  row: { text: string; span: number }[] | null;
  cell: string | null;
  caption: string | null;
}

/** Tables (nested tables' text goes into the cell that holds them) and the paragraphs outside them. */
export function tablesOfHtml(html: string): { tables: DocxTable[]; outsideText: string[] } {
  const tables: DocxTable[] = [];
  const outsideText: string[] = [];
  const stack: OpenTable[] = [];
  let paragraph = '';
  let lastParagraph: string | null = null;
  const parser = new SaxesParser({ fragment: false });
  parser.on('opentag', (tag) => {
    const table = stack.at(-1);
    switch (tag.name) {
      case 'table':
        if (stack.length === 0) stack.push({ rows: [], row: null, cell: null, caption: lastParagraph });
        else stack.push({ rows: [], row: null, cell: null, caption: null });
        break;
      case 'tr':
        if (table) table.row = [];
        break;
      case 'td':
      case 'th':
        if (table) {
          table.cell = '';
          const span = Number(tag.attributes.colspan ?? 1);
          table.row?.push({ text: '', span: Number.isInteger(span) && span > 0 && span < 100 ? span : 1 });
        }
        break;
      case 'br':
        if (table?.cell !== null && table?.cell !== undefined) table.cell += ' ';
        else paragraph += ' ';
        break;
      default:
        break;
    }
  });
  parser.on('text', (text) => {
    const table = stack.at(-1);
    if (table && table.cell !== null) table.cell += text;
    else if (table) return;
    else paragraph += text;
  });
  parser.on('closetag', (tag) => {
    const table = stack.at(-1);
    switch (tag.name) {
      case 'p':
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'li':
        if (table && table.cell !== null) table.cell += '\n';
        else if (!table) {
          const text = clean(paragraph);
          if (text !== '') {
            outsideText.push(text);
            lastParagraph = text;
          }
          paragraph = '';
        }
        break;
      case 'td':
      case 'th':
        if (table && table.row && table.cell !== null) {
          table.row.at(-1)!.text = clean(table.cell.replace(/\n/gu, ' '));
          table.cell = null;
        }
        break;
      case 'tr':
        if (table?.row) {
          const cells = table.row.flatMap((cell) => [
            { text: cell.text },
            ...Array.from({ length: cell.span - 1 }, () => undefined),
          ]);
          table.rows.push({ rowNumber: table.rows.length + 1, cells });
          table.row = null;
        }
        break;
      case 'table': {
        stack.pop();
        if (!table) break;
        const parent = stack.at(-1);
        if (parent) {
          // A table inside a cell: its text belongs to that cell.
          if (parent.cell !== null)
            parent.cell += table.rows.map((row) => row.cells.map((cell) => cell?.text ?? '').join(' ')).join(', ');
        } else {
          const number = tables.length + 1;
          tables.push({
            sheet: { name: `Table ${number}`, label: `table ${number}`, rows: table.rows, problems: [] },
            caption: table.caption,
          });
          lastParagraph = null;
        }
        break;
      }
      default:
        break;
    }
  });
  parser.write(`<root>${html}</root>`).close();
  return { tables, outsideText };
}

function clean(text: string): string {
  return text
    .replace(/[\u00a0\u2007\u2009\u202f]/gu, ' ')
    .replace(/[ \t]+/gu, ' ')
    .trim();
}
