import { CELL_PAD_X, clip, COLOR, CONTENT_BOTTOM, CONTENT_WIDTH, MARGIN, type PdfLayout } from './pdf-layout.js';
import type { LetterFont } from './fonts.js';
import { MAX_CELL_CHARS, MAX_FIELD_CHARS, showMoney, showQuantity } from './format.js';
import type { ClaimLetter, ClaimLetterLine } from './letter.js';

// The claim letter's table of invoices and lines: charged and agreed unit price and the difference
// per line, where the price was agreed below it, the invoice heading each invoice's first row.

interface TableColumn {
  header: string;
  width: number;
  align: 'left' | 'right';
}

const NUMBER_WIDTH = 58;
// The invoice column is as wide as the letter's longest invoice number needs (within these bounds),
// so a number is never broken across lines ("KPTYLUD-2602 / 3"); a longer one is set smaller.
const INVOICE_WIDTH = { min: 70, max: 124 } as const;
const TABLE_COLUMNS: readonly TableColumn[] = [
  { header: 'Invoice / date', width: INVOICE_WIDTH.min, align: 'left' },
  { header: 'Line / description', width: 0, align: 'left' }, // takes the rest
  { header: 'Quantity', width: 56, align: 'right' },
  { header: 'Charged unit price', width: NUMBER_WIDTH, align: 'right' },
  { header: 'Agreed unit price', width: NUMBER_WIDTH, align: 'right' },
  { header: 'Difference', width: 62, align: 'right' },
  { header: 'Cur.', width: 28, align: 'left' },
];

interface TableLayout {
  widths: number[];
  xs: number[];
}

// The columns for one letter: the invoice column takes what its longest number needs from the
// description column.
function tableLayout(invoiceWidth: number): TableLayout {
  const fixed = TABLE_COLUMNS.reduce((total, column, index) => total + (index === 0 ? invoiceWidth : column.width), 0);
  const widths = TABLE_COLUMNS.map((column, index) =>
    index === 0 ? invoiceWidth : column.width === 0 ? CONTENT_WIDTH - fixed : column.width,
  );
  const xs = widths.map((_, index) => MARGIN.left + widths.slice(0, index).reduce((a, b) => a + b, 0));
  return { widths, xs };
}
const CELL_PAD_Y = 3.5;
const TABLE_FONT_SIZE = 8;
const DETAIL_FONT_SIZE = 6.8;
const HEADER_FONT_SIZE = 7;

interface Cell {
  text: string;
  font: LetterFont;
  size: number;
  color: string;
  /** Printed on one line (an invoice number): never wrapped. */
  oneLine?: boolean;
}

interface PreparedRow {
  line: ClaimLetterLine;
  cells: Cell[][];
  /** Small text below the row: where the price was agreed, the finding, the alert's state. */
  detail: string | null;
  rowHeight: number;
  detailHeight: number;
}

export class LinesTable {
  private readonly table: TableLayout;

  constructor(
    private readonly pdf: PdfLayout,
    private readonly letter: ClaimLetter,
  ) {
    this.table = tableLayout(this.invoiceColumnWidth());
  }

  private invoiceColumnWidth(): number {
    this.pdf.use('condensedBold', TABLE_FONT_SIZE);
    let widest = 0;
    for (const line of this.letter.lines)
      widest = Math.max(widest, this.pdf.doc.widthOfString(clip(line.invoiceNumber, MAX_FIELD_CHARS)));
    return Math.min(INVOICE_WIDTH.max, Math.max(INVOICE_WIDTH.min, Math.ceil(widest) + 2 * CELL_PAD_X + 1));
  }

  write(): void {
    const [firstLine] = this.letter.lines;
    if (firstLine === undefined) {
      this.pdf.heading('Invoices and lines claimed');
      this.pdf.paragraph('No invoice lines are included in this export.', 'regular', 9.5, COLOR.muted);
      return;
    }
    const headerHeight = this.tableHeaderHeight();
    const pageRoom = CONTENT_BOTTOM - MARGIN.top - headerHeight;
    // The heading and the table header stay with the first row: never alone at a page's foot.
    const first = this.prepareRow(firstLine, true, pageRoom);
    this.pdf.heading('Invoices and lines claimed', headerHeight + first.rowHeight + first.detailHeight);
    let previousInvoice: string | null = null;
    let firstOnPage = true;
    this.drawTableHeader();
    for (const line of this.letter.lines) {
      const newInvoice = line.invoiceId !== previousInvoice;
      // The invoice number and date head each invoice's first row, and again atop every page.
      let row = this.prepareRow(line, newInvoice || firstOnPage, pageRoom);
      if (this.pdf.y + row.rowHeight + row.detailHeight > CONTENT_BOTTOM) {
        this.pdf.doc.addPage();
        this.pdf.y = MARGIN.top;
        this.drawTableHeader();
        firstOnPage = true;
        row = this.prepareRow(line, true, pageRoom);
      }
      this.drawRow(row, newInvoice && !firstOnPage);
      previousInvoice = line.invoiceId;
      firstOnPage = false;
    }
    this.pdf.doc
      .save()
      .moveTo(MARGIN.left, this.pdf.y)
      .lineTo(MARGIN.left + CONTENT_WIDTH, this.pdf.y)
      .lineWidth(0.8)
      .strokeColor(COLOR.rule)
      .stroke()
      .restore();
    this.pdf.y += 10;
  }

  private tableHeaderHeight(): number {
    return (
      Math.max(
        ...TABLE_COLUMNS.map((column, index) =>
          this.pdf.height(column.header, 'condensedBold', HEADER_FONT_SIZE, this.table.widths[index]! - 2 * CELL_PAD_X),
        ),
      ) +
      2 * CELL_PAD_Y
    );
  }

  private drawTableHeader(): void {
    const height = this.tableHeaderHeight();
    this.pdf.doc.save().rect(MARGIN.left, this.pdf.y, CONTENT_WIDTH, height).fill(COLOR.accent).restore();
    TABLE_COLUMNS.forEach((column, index) => {
      this.pdf.place(
        column.header,
        this.table.xs[index]! + CELL_PAD_X,
        this.pdf.y + CELL_PAD_Y,
        this.table.widths[index]! - 2 * CELL_PAD_X,
        'condensedBold',
        HEADER_FONT_SIZE,
        COLOR.white,
        column.align,
      );
    });
    this.pdf.y += height;
  }

  private prepareRow(line: ClaimLetterLine, showInvoice: boolean, pageRoom: number): PreparedRow {
    const cell = (
      text: string,
      font: LetterFont = 'condensed',
      size = TABLE_FONT_SIZE,
      color: string = COLOR.text,
    ): Cell => ({
      text,
      font,
      size,
      color,
    });
    const description = clip(
      line.lineReference
        ? `Line ${line.lineReference}: ${line.description ?? line.title}`
        : (line.description ?? line.title),
      MAX_CELL_CHARS,
    );
    const number = this.pdf.fitOneLine(
      clip(line.invoiceNumber, MAX_FIELD_CHARS),
      'condensedBold',
      TABLE_FONT_SIZE,
      this.table.widths[0]! - 2 * CELL_PAD_X,
    );
    const cells: Cell[][] = [
      showInvoice
        ? [
            { ...cell(number.text, 'condensedBold', number.size), oneLine: true },
            cell(line.issueDate ?? '', 'condensed', 7, COLOR.muted),
          ]
        : [],
      [cell(description)],
      [cell(showQuantity(line.quantity, line.unit))],
      [cell(showMoney(line.chargedUnitPrice))],
      [cell(showMoney(line.agreedUnitPrice))],
      [cell(showMoney(line.difference), 'condensedBold')],
      [cell(line.currencyCode)],
    ];
    const cellHeight = (parts: Cell[], index: number) =>
      parts.reduce(
        (total, part) =>
          total +
          (part.text === ''
            ? 0
            : part.oneLine
              ? part.size * 1.2
              : this.pdf.height(part.text, part.font, part.size, this.table.widths[index]! - 2 * CELL_PAD_X)),
        0,
      );
    const detail = rowDetail(line);
    const detailWidth = CONTENT_WIDTH - this.table.widths[0]! - 2 * CELL_PAD_X;
    // A row and its detail always fit one page: the detail first gives way, then the description.
    const detailHeight =
      detail === null
        ? 0
        : Math.min(this.pdf.height(detail, 'regular', DETAIL_FONT_SIZE, detailWidth) + 2, pageRoom / 3);
    const rowHeight = Math.min(Math.max(...cells.map(cellHeight)) + 2 * CELL_PAD_Y, pageRoom - detailHeight - 4);
    return { line, cells, detail, rowHeight, detailHeight };
  }

  private drawRow(row: PreparedRow, invoiceBoundary: boolean): void {
    const top = this.pdf.y;
    const ruleColor = invoiceBoundary ? COLOR.rule : COLOR.faintRule;
    this.pdf.doc
      .save()
      .moveTo(MARGIN.left, top)
      .lineTo(MARGIN.left + CONTENT_WIDTH, top)
      .lineWidth(invoiceBoundary ? 0.8 : 0.4)
      .strokeColor(ruleColor)
      .stroke()
      .restore();
    row.cells.forEach((parts, index) => {
      let y = top + CELL_PAD_Y;
      const width = this.table.widths[index]! - 2 * CELL_PAD_X;
      const x = this.table.xs[index]! + CELL_PAD_X;
      for (const part of parts) {
        if (part.text === '') continue;
        if (part.oneLine) {
          // Fitted to the column beforehand (fitOneLine): printed whole, without a line break.
          this.pdf.use(part.font, part.size, part.color).text(part.text, x, y, { lineBreak: false, lineGap: 0 });
          y += part.size * 1.2;
          continue;
        }
        const room = top + row.rowHeight - CELL_PAD_Y - y;
        y += this.pdf.place(
          part.text,
          x,
          y,
          width,
          part.font,
          part.size,
          part.color,
          TABLE_COLUMNS[index]!.align,
          room,
        );
      }
    });
    this.pdf.y = top + row.rowHeight;
    if (row.detail !== null) {
      const x = this.table.xs[1]! + CELL_PAD_X;
      this.pdf.place(
        row.detail,
        x,
        this.pdf.y - 1.5,
        MARGIN.left + CONTENT_WIDTH - x - CELL_PAD_X,
        'regular',
        DETAIL_FONT_SIZE,
        COLOR.muted,
        'left',
        row.detailHeight,
      );
      this.pdf.y += row.detailHeight + 1;
    }
  }
}

const STATUS_NOTE: Record<ClaimLetterLine['alertStatus'], string | null> = {
  claimed: null,
  pending: 'Under review, not yet claimed.',
  credited: 'Already credited by you; listed for completeness.',
  dismissed: 'Withdrawn; not claimed.',
};

/** Where the price was agreed (or, for findings without an agreed price, what was found). */
function rowDetail(line: ClaimLetterLine): string | null {
  const parts: string[] = [];
  const status = STATUS_NOTE[line.alertStatus];
  if (status) parts.push(status);
  if (line.citation) parts.push(`Agreed: ${clip(line.citation, MAX_CELL_CHARS)}`);
  else if (line.agreedUnitPrice === null) parts.push(clip(line.explanation || line.title, MAX_CELL_CHARS));
  return parts.length > 0 ? parts.join('  ') : null;
}
