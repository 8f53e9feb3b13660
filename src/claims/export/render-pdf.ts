import PDFDocument from 'pdfkit';
import { LETTER_FONTS, type LetterFont } from './fonts.js';
import { showLongDate, showMoney, showPeriod, showQuantity } from './format.js';
import type { ClaimLetter, ClaimLetterLine, ClaimLetterParty, ClaimLetterTotal } from './letter.js';

// The claim letter a supplier's accounts team receives: who claims from whom, the reference to
// quote, every invoice line with what was charged, what was agreed (and where) and the difference,
// the totals per currency, the refunds already received and how to answer. A pure function of the
// letter: the same letter gives the same bytes (the PDF's dates come from `generatedAt`).

type PdfDoc = PDFKit.PDFDocument;

const PAGE = { width: 595.28, height: 841.89 } as const; // A4 in points
const MARGIN = { top: 58, bottom: 62, left: 50, right: 50 } as const;
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const CONTENT_BOTTOM = PAGE.height - MARGIN.bottom;

const COLOR = {
  text: '#1b1f24',
  muted: '#5b6470',
  accent: '#1f3a5f',
  band: '#eef2f7',
  rule: '#c9d1db',
  faintRule: '#e3e8ee',
  white: '#ffffff',
} as const;

// Long free text is cut for the printed table (the spreadsheet exports carry it whole), so one
// line can never outgrow a page and measuring stays cheap whatever an invoice holds.
const MAX_CELL_CHARS = 400;
const MAX_NOTE_CHARS = 4_000;
// Names, titles, address lines and references: far beyond any real one, short enough for the head.
const MAX_FIELD_CHARS = 200;
const MAX_ADDRESS_LINES = 6;

/** The PDF letter for a claim; see docs/claim-letter.md for what it contains and why. */
export async function renderClaimPdf(letter: ClaimLetter): Promise<Buffer> {
  const generatedAt = validDate(letter.generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: `Claim ${letter.reference}`,
      Subject: letter.title,
      Author: letter.organization.name,
      Creator: 'Invoice Compliance Service',
      CreationDate: generatedAt,
      ModDate: generatedAt,
    },
  });
  const bytes = collect(doc);
  for (const font of Object.values(LETTER_FONTS)) doc.registerFont(font.name, font.path);

  const writer = new LetterWriter(doc, letter);
  writer.write();
  writeFooters(doc, letter);
  doc.end();
  return bytes;
}

function collect(doc: PdfDoc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

function validDate(iso: string): Date {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** "1,250.00 EUR, 90.00 NOK and 12.00 SEK" */
function amountsInWords(amounts: { amount: string; currencyCode: string }[]): string {
  const parts = amounts.map((a) => `${showMoney(a.amount)} ${a.currencyCode}`);
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

// ---------------------------------------------------------------------------------------------
// The table of invoices and lines

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
const CELL_PAD_X = 3;
// An invoice number too long for the widest column is set down to this size before it is cut.
const MIN_NUMBER_FONT_SIZE = 6;
// "Kind regards," and the sender's name: kept on the page of the block before them.
const CLOSING_HEIGHT = 44;

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

interface StackedLine {
  text: string;
  font: LetterFont;
  size: number;
  color?: string;
  gapAfter?: number;
}

interface PreparedRow {
  line: ClaimLetterLine;
  cells: Cell[][];
  /** Small text below the row: where the price was agreed, the finding, the alert's state. */
  detail: string | null;
  rowHeight: number;
  detailHeight: number;
}

// ---------------------------------------------------------------------------------------------

class LetterWriter {
  private y: number = MARGIN.top;
  private readonly table: TableLayout;

  constructor(
    private readonly doc: PdfDoc,
    private readonly letter: ClaimLetter,
  ) {
    this.table = tableLayout(this.invoiceColumnWidth());
  }

  write(): void {
    this.writeParties();
    this.writeSubjectAndReference();
    this.writeOpening();
    this.writeLinesTable();
    this.writeTotals();
    // The closing stays with the last table rows: the refunds' last row keeps room on its page for
    // everything after it (how to respond, the note, the closing) when that fits one page. Past
    // that (a long note), each block keeps room for the closing, so a page never holds "Kind
    // regards" alone.
    const hasNote = Boolean(this.letter.note && this.letter.note.trim() !== '');
    const answers = this.letter.status !== 'cancelled' && this.letter.status !== 'completed';
    const tail = this.tailHeight(hasNote, answers);
    this.writeRefunds(tail <= (CONTENT_BOTTOM - MARGIN.top) / 2 ? tail : !hasNote && !answers ? CLOSING_HEIGHT : 0);
    this.writeHowToRespond(!hasNote ? CLOSING_HEIGHT : 0);
    this.writeNote(CLOSING_HEIGHT);
    this.writeClosing();
  }

  /** The height of what follows the refunds: how to respond, the note, the closing. */
  private tailHeight(hasNote: boolean, answers: boolean): number {
    const paragraph = (text: string) => {
      this.use('regular', 9.5);
      return this.doc.heightOfString(text, { width: CONTENT_WIDTH, lineGap: 1.5 }) + 8;
    };
    const heading = 22;
    let height = CLOSING_HEIGHT + 6;
    if (answers) height += heading + this.respondParagraphs().reduce((total, text) => total + paragraph(text), 0);
    if (hasNote) height += heading + paragraph(clip(this.letter.note!.trim(), MAX_NOTE_CHARS));
    return height;
  }

  private respondParagraphs(): [string, string] {
    const { letter } = this;
    const outstanding = letter.totals.filter((t) => !isZero(t.outstanding) && !t.outstanding.startsWith('-'));
    const amount =
      outstanding.length > 0
        ? amountsInWords(outstanding.map((t) => ({ amount: t.outstanding, currencyCode: t.currencyCode })))
        : 'the outstanding amount';
    return [
      `Please issue a credit note for ${amount} and quote the reference ${letter.reference} on it, or refund the amount quoting the same reference. ` +
        'One credit note per currency is easiest for both of us to match.',
      `If you disagree with a line, reply to ${clip(letter.organization.name, MAX_FIELD_CHARS)} with the reference, the invoice number and the line, and tell us why; ` +
        'we will review it and adjust the claim where you are right.',
    ];
  }

  private invoiceColumnWidth(): number {
    this.use('condensedBold', TABLE_FONT_SIZE);
    let widest = 0;
    for (const line of this.letter.lines)
      widest = Math.max(widest, this.doc.widthOfString(clip(line.invoiceNumber, MAX_FIELD_CHARS)));
    return Math.min(INVOICE_WIDTH.max, Math.max(INVOICE_WIDTH.min, Math.ceil(widest) + 2 * CELL_PAD_X + 1));
  }

  /** The size (down to MIN_NUMBER_FONT_SIZE) at which `text` fits `width` on one line, cut with an ellipsis if even that is too wide. */
  private fitOneLine(text: string, font: LetterFont, size: number, width: number): { text: string; size: number } {
    this.use(font, size);
    const natural = this.doc.widthOfString(text);
    if (natural <= width) return { text, size };
    const smaller = Math.max(MIN_NUMBER_FONT_SIZE, Math.floor((size * width * 10) / natural) / 10);
    this.use(font, smaller);
    if (this.doc.widthOfString(text) <= width) return { text, size: smaller };
    let kept = text;
    while (kept.length > 1 && this.doc.widthOfString(`${kept}…`) > width) kept = kept.slice(0, -1);
    return { text: `${kept}…`, size: smaller };
  }

  // --- text primitives ---

  private use(font: LetterFont, size: number, color: string = COLOR.text): PdfDoc {
    return this.doc.font(LETTER_FONTS[font].name).fontSize(size).fillColor(color);
  }

  private height(text: string, font: LetterFont, size: number, width: number): number {
    this.use(font, size);
    return this.doc.heightOfString(text, { width, lineGap: 0 });
  }

  /** Text at a fixed place that never flows onto another page (the caller made room). */
  private place(
    text: string,
    x: number,
    y: number,
    width: number,
    font: LetterFont,
    size: number,
    color: string = COLOR.text,
    align: 'left' | 'right' = 'left',
    height?: number,
  ): number {
    const measured = this.height(text, font, size, width);
    this.use(font, size, color).text(text, x, y, {
      width,
      align,
      lineGap: 0,
      height: height ?? measured + 1,
      ellipsis: true,
    });
    return Math.min(measured, height ?? measured);
  }

  /**
   * A paragraph at the cursor over the full width; it may continue on the next page. `keepAfter`:
   * room the next block needs on the same page (the closing), so a short paragraph moves with it.
   */
  private paragraph(
    text: string,
    font: LetterFont = 'regular',
    size = 9.5,
    color: string = COLOR.text,
    gapAfter = 8,
    keepAfter = 0,
  ): void {
    const height = this.height(text, font, size, CONTENT_WIDTH);
    const whole = height + gapAfter + keepAfter;
    this.ensureSpace(keepAfter > 0 && whole <= CONTENT_BOTTOM - MARGIN.top ? whole : Math.min(height, 3 * size * 1.3));
    this.use(font, size, color).text(text, MARGIN.left, this.y, { width: CONTENT_WIDTH, lineGap: 1.5 });
    this.y = this.doc.y + gapAfter;
  }

  private heading(text: string, keepWith = 40): void {
    this.ensureSpace(14 + keepWith);
    this.y += 6;
    this.place(text, MARGIN.left, this.y, CONTENT_WIDTH, 'bold', 10.5, COLOR.accent);
    this.y += 16;
  }

  private ensureSpace(height: number): boolean {
    if (this.y + height <= CONTENT_BOTTOM) return false;
    this.doc.addPage();
    this.y = MARGIN.top;
    return true;
  }

  // --- the letter head ---

  /** Lines one under the other; whatever would pass `bottom` is cut with an ellipsis or left out. */
  private stack(
    lines: StackedLine[],
    x: number,
    y: number,
    width: number,
    bottom: number,
    align: 'left' | 'right' = 'left',
  ): number {
    for (const line of lines) {
      const room = bottom - y;
      if (room < line.size * 1.2) break;
      y +=
        this.place(line.text, x, y, width, line.font, line.size, line.color ?? COLOR.text, align, room) +
        (line.gapAfter ?? 1);
    }
    return y;
  }

  private writeParties(): void {
    const { organization, supplier, supplierContact } = this.letter;
    // Letterhead: the sender's name on the left, its address and identifiers on the right. Each
    // block has a bounded height, so the head never pushes the letter off its first page.
    const top = this.y;
    const detailsWidth = 230;
    const nameHeight = this.place(
      clip(organization.name, MAX_FIELD_CHARS),
      MARGIN.left,
      top,
      CONTENT_WIDTH - detailsWidth - 10,
      'bold',
      14,
      COLOR.accent,
      'left',
      52,
    );
    const details = partyDetails(organization).map((text): StackedLine => ({
      text,
      font: 'regular',
      size: 8,
      color: COLOR.muted,
    }));
    const detailsBottom = this.stack(
      details,
      MARGIN.left + CONTENT_WIDTH - detailsWidth,
      top + 1,
      detailsWidth,
      top + 100,
      'right',
    );
    let y = Math.max(top + nameHeight, detailsBottom) + 8;
    this.doc
      .save()
      .moveTo(MARGIN.left, y)
      .lineTo(MARGIN.left + CONTENT_WIDTH, y)
      .lineWidth(0.8)
      .strokeColor(COLOR.accent)
      .stroke()
      .restore();
    y += 18;

    // The addressee on the left, the date on the right, as on any business letter.
    const addressTop = y;
    const addressee: StackedLine[] = [
      { text: 'To', font: 'regular', size: 7.5, color: COLOR.muted, gapAfter: 3.5 },
      { text: clip(supplier.name, MAX_FIELD_CHARS), font: 'bold', size: 11, gapAfter: 2 },
      ...(supplierContact?.name
        ? [{ text: `Attn. ${clip(supplierContact.name, MAX_FIELD_CHARS)}`, font: 'regular' as const, size: 9.5 }]
        : []),
      ...addressLines(supplier).map((text): StackedLine => ({ text, font: 'regular', size: 9.5 })),
      ...partyIdentifiers(supplier).map((text): StackedLine => ({
        text,
        font: 'regular',
        size: 8,
        color: COLOR.muted,
      })),
      ...(supplierContact?.email
        ? [
            {
              text: clip(supplierContact.email, MAX_FIELD_CHARS),
              font: 'regular' as const,
              size: 8,
              color: COLOR.muted,
            },
          ]
        : []),
    ];
    y = this.stack(addressee, MARGIN.left, y, 300, addressTop + 190);

    const dateX = MARGIN.left + CONTENT_WIDTH - 170;
    this.place('Date', dateX, addressTop, 170, 'regular', 7.5, COLOR.muted, 'right');
    this.place(showLongDate(this.letter.generatedAt), dateX, addressTop + 11, 170, 'bold', 9.5, COLOR.text, 'right');
    this.y = Math.max(y, addressTop + 30) + 22;
  }

  private writeSubjectAndReference(): void {
    const { letter } = this;
    this.y +=
      this.place(
        `Claim: ${clip(letter.title, MAX_FIELD_CHARS)}`,
        MARGIN.left,
        this.y,
        CONTENT_WIDTH,
        'bold',
        15,
        COLOR.text,
        'left',
        56,
      ) + 10;

    // The reference is what the supplier must copy onto its credit note: a band of its own.
    const bandHeight = 44;
    this.doc.save().rect(MARGIN.left, this.y, CONTENT_WIDTH, bandHeight).fill(COLOR.band).restore();
    this.doc.save().rect(MARGIN.left, this.y, 3, bandHeight).fill(COLOR.accent).restore();
    this.place(
      'Reference to quote on your credit note and in every reply',
      MARGIN.left + 14,
      this.y + 7,
      320,
      'regular',
      7.5,
      COLOR.muted,
    );
    this.place(
      letter.reference,
      MARGIN.left + 14,
      this.y + 18,
      CONTENT_WIDTH - 28,
      'bold',
      16,
      COLOR.accent,
      'left',
      20,
    );
    this.y += bandHeight + 12;

    const period = showPeriod(letter.agreement.startDate, letter.agreement.endDate);
    const agreement = `Agreement: ${clip(letter.agreement.title, MAX_FIELD_CHARS)}${period ? ` (${period})` : ''}`;
    this.y += this.place(agreement, MARGIN.left, this.y, CONTENT_WIDTH, 'regular', 9.5, COLOR.text, 'left', 36) + 14;
  }

  private writeOpening(): void {
    const { letter } = this;
    const contactName = letter.supplierContact?.name;
    this.paragraph(
      `Dear ${contactName ? clip(contactName, MAX_FIELD_CHARS) : 'Sir or Madam'},`,
      'regular',
      9.5,
      COLOR.text,
      6,
    );
    if (letter.status === 'cancelled')
      this.paragraph('This claim has been withdrawn. This copy is for your records only; no action is needed.', 'bold');
    if (letter.status === 'completed')
      this.paragraph('This claim has been settled. This copy is for your records only; no action is needed.', 'bold');

    const invoices = new Set(letter.lines.map((line) => line.invoiceId)).size;
    const claimed = letter.totals.filter((t) => !isZero(t.claimed));
    const refunded = letter.totals.some((t) => !isZero(t.refunded));
    const sentences = [
      `We have checked your invoices to ${clip(letter.organization.name, MAX_FIELD_CHARS)} against the agreement above.`,
    ];
    if (invoices > 0) {
      sentences.push(
        `On ${plural(invoices, 'invoice', 'invoices')} we were charged more than agreed: the ${plural(letter.lines.length, 'line is', 'lines are')} listed below with the price charged, the price agreed, where it was agreed, and the difference.`,
      );
    }
    if (claimed.length > 0)
      sentences.push(
        `We claim ${amountsInWords(claimed.map((t) => ({ amount: t.claimed, currencyCode: t.currencyCode })))} back.`,
      );
    if (refunded) {
      const outstanding = letter.totals.filter((t) => !isZero(t.outstanding));
      sentences.push(
        outstanding.length > 0
          ? `After the refunds already received, ${amountsInWords(outstanding.map((t) => ({ amount: t.outstanding, currencyCode: t.currencyCode })))} ${outstanding.length === 1 ? 'is' : 'are'} still outstanding.`
          : 'The refunds already received cover the claim in full.',
      );
    }
    this.paragraph(sentences.join(' '));
    this.y += 4;
  }

  // --- the table ---

  private writeLinesTable(): void {
    const [firstLine] = this.letter.lines;
    if (firstLine === undefined) {
      this.heading('Invoices and lines claimed');
      this.paragraph('No invoice lines are included in this export.', 'regular', 9.5, COLOR.muted);
      return;
    }
    const headerHeight = this.tableHeaderHeight();
    const pageRoom = CONTENT_BOTTOM - MARGIN.top - headerHeight;
    // The heading and the table header stay with the first row: never alone at a page's foot.
    const first = this.prepareRow(firstLine, true, pageRoom);
    this.heading('Invoices and lines claimed', headerHeight + first.rowHeight + first.detailHeight);
    let previousInvoice: string | null = null;
    let firstOnPage = true;
    this.drawTableHeader();
    for (const line of this.letter.lines) {
      const newInvoice = line.invoiceId !== previousInvoice;
      // The invoice number and date head each invoice's first row, and again atop every page.
      let row = this.prepareRow(line, newInvoice || firstOnPage, pageRoom);
      if (this.y + row.rowHeight + row.detailHeight > CONTENT_BOTTOM) {
        this.doc.addPage();
        this.y = MARGIN.top;
        this.drawTableHeader();
        firstOnPage = true;
        row = this.prepareRow(line, true, pageRoom);
      }
      this.drawRow(row, newInvoice && !firstOnPage);
      previousInvoice = line.invoiceId;
      firstOnPage = false;
    }
    this.doc
      .save()
      .moveTo(MARGIN.left, this.y)
      .lineTo(MARGIN.left + CONTENT_WIDTH, this.y)
      .lineWidth(0.8)
      .strokeColor(COLOR.rule)
      .stroke()
      .restore();
    this.y += 10;
  }

  private tableHeaderHeight(): number {
    return (
      Math.max(
        ...TABLE_COLUMNS.map((column, index) =>
          this.height(column.header, 'condensedBold', HEADER_FONT_SIZE, this.table.widths[index]! - 2 * CELL_PAD_X),
        ),
      ) +
      2 * CELL_PAD_Y
    );
  }

  private drawTableHeader(): void {
    const height = this.tableHeaderHeight();
    this.doc.save().rect(MARGIN.left, this.y, CONTENT_WIDTH, height).fill(COLOR.accent).restore();
    TABLE_COLUMNS.forEach((column, index) => {
      this.place(
        column.header,
        this.table.xs[index]! + CELL_PAD_X,
        this.y + CELL_PAD_Y,
        this.table.widths[index]! - 2 * CELL_PAD_X,
        'condensedBold',
        HEADER_FONT_SIZE,
        COLOR.white,
        column.align,
      );
    });
    this.y += height;
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
    const number = this.fitOneLine(
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
              : this.height(part.text, part.font, part.size, this.table.widths[index]! - 2 * CELL_PAD_X)),
        0,
      );
    const detail = rowDetail(line);
    const detailWidth = CONTENT_WIDTH - this.table.widths[0]! - 2 * CELL_PAD_X;
    // A row and its detail always fit one page: the detail first gives way, then the description.
    const detailHeight =
      detail === null ? 0 : Math.min(this.height(detail, 'regular', DETAIL_FONT_SIZE, detailWidth) + 2, pageRoom / 3);
    const rowHeight = Math.min(Math.max(...cells.map(cellHeight)) + 2 * CELL_PAD_Y, pageRoom - detailHeight - 4);
    return { line, cells, detail, rowHeight, detailHeight };
  }

  private drawRow(row: PreparedRow, invoiceBoundary: boolean): void {
    const top = this.y;
    const ruleColor = invoiceBoundary ? COLOR.rule : COLOR.faintRule;
    this.doc
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
          this.use(part.font, part.size, part.color).text(part.text, x, y, { lineBreak: false, lineGap: 0 });
          y += part.size * 1.2;
          continue;
        }
        const room = top + row.rowHeight - CELL_PAD_Y - y;
        y += this.place(part.text, x, y, width, part.font, part.size, part.color, TABLE_COLUMNS[index]!.align, room);
      }
    });
    this.y = top + row.rowHeight;
    if (row.detail !== null) {
      const x = this.table.xs[1]! + CELL_PAD_X;
      this.place(
        row.detail,
        x,
        this.y - 1.5,
        MARGIN.left + CONTENT_WIDTH - x - CELL_PAD_X,
        'regular',
        DETAIL_FONT_SIZE,
        COLOR.muted,
        'left',
        row.detailHeight,
      );
      this.y += row.detailHeight + 1;
    }
  }

  // --- totals, refunds, answer ---

  private writeTotals(): void {
    this.heading('Totals per currency');
    const columns = [
      { header: 'Currency', width: 95, align: 'left' as const },
      { header: 'Claimed', width: 130, align: 'right' as const },
      { header: 'Refunds received', width: 130, align: 'right' as const },
      { header: 'Outstanding', width: 140, align: 'right' as const },
    ];
    const rows = this.letter.totals.map((total: ClaimLetterTotal) => [
      total.currencyCode,
      showMoney(total.claimed),
      showMoney(total.refunded),
      showMoney(total.outstanding),
    ]);
    this.simpleTable(columns, rows, 3);
  }

  private writeRefunds(keepAfter: number): void {
    // A short list of refunds stays with its heading (and with what must follow it).
    const rows = this.letter.refunds.length;
    const block = rows === 0 ? 20 : rows <= 5 ? 15 + rows * 17 + 8 : 40;
    this.heading('Refunds received', Math.min(block + keepAfter, CONTENT_BOTTOM - MARGIN.top - 40));
    if (this.letter.refunds.length === 0) {
      this.paragraph(
        'We have not received any refund for this claim so far.',
        'regular',
        9.5,
        COLOR.muted,
        8,
        keepAfter,
      );
      return;
    }
    const columns = [
      { header: 'Date', width: 95, align: 'left' as const },
      { header: 'Your reference', width: 200, align: 'left' as const },
      { header: 'Amount', width: 130, align: 'right' as const },
      { header: 'Currency', width: 70, align: 'right' as const },
    ];
    const cells = this.letter.refunds.map((refund) => [
      refund.date,
      clip(refund.reference ?? '–', MAX_FIELD_CHARS),
      showMoney(refund.amount),
      refund.currencyCode,
    ]);
    this.simpleTable(columns, cells, 2, keepAfter);
  }

  /** A small table (totals, refunds) whose rows do not break across pages. */
  private simpleTable(
    columns: { header: string; width: number; align: 'left' | 'right' }[],
    rows: string[][],
    boldColumn: number,
    keepAfter = 0,
  ): void {
    const drawHeader = () => {
      let x = MARGIN.left;
      for (const column of columns) {
        this.place(
          column.header,
          x + CELL_PAD_X,
          this.y,
          column.width - 2 * CELL_PAD_X,
          'bold',
          7.5,
          COLOR.muted,
          column.align,
        );
        x += column.width;
      }
      this.y += 12;
      this.doc
        .save()
        .moveTo(MARGIN.left, this.y)
        .lineTo(MARGIN.left + CONTENT_WIDTH, this.y)
        .lineWidth(0.8)
        .strokeColor(COLOR.rule)
        .stroke()
        .restore();
      this.y += 3;
    };
    drawHeader();
    rows.forEach((row, rowIndex) => {
      const height =
        Math.max(...row.map((text, index) => this.height(text, 'regular', 9, columns[index]!.width - 2 * CELL_PAD_X))) +
        5;
      // The last row keeps room for what must stay with it (the closing).
      const last = rowIndex === rows.length - 1;
      if (this.ensureSpace(height + (last ? 8 + keepAfter : 0))) drawHeader();
      let x = MARGIN.left;
      row.forEach((text, index) => {
        const column = columns[index]!;
        this.place(
          text,
          x + CELL_PAD_X,
          this.y + 2,
          column.width - 2 * CELL_PAD_X,
          index === boldColumn ? 'bold' : 'regular',
          9,
          COLOR.text,
          column.align,
        );
        x += column.width;
      });
      this.y += height;
      this.doc
        .save()
        .moveTo(MARGIN.left, this.y)
        .lineTo(MARGIN.left + CONTENT_WIDTH, this.y)
        .lineWidth(0.4)
        .strokeColor(COLOR.faintRule)
        .stroke()
        .restore();
    });
    this.y += 8;
  }

  private writeHowToRespond(keepAfter: number): void {
    const { letter } = this;
    if (letter.status === 'cancelled' || letter.status === 'completed') return;
    this.heading('How to respond');
    const [ask, dispute] = this.respondParagraphs();
    this.paragraph(ask);
    this.paragraph(dispute, 'regular', 9.5, COLOR.text, 8, keepAfter);
  }

  private writeNote(keepAfter: number): void {
    if (!this.letter.note || this.letter.note.trim() === '') return;
    const note = clip(this.letter.note.trim(), MAX_NOTE_CHARS);
    // The heading stays with its note (and the note with the closing) when they fit one page.
    this.heading(
      'Note',
      Math.min(this.height(note, 'regular', 9.5, CONTENT_WIDTH) + 8 + keepAfter, CONTENT_BOTTOM - MARGIN.top - 40),
    );
    this.paragraph(note, 'regular', 9.5, COLOR.text, 8, keepAfter);
  }

  private writeClosing(): void {
    this.ensureSpace(CLOSING_HEIGHT);
    this.y += 6;
    this.place('Kind regards,', MARGIN.left, this.y, CONTENT_WIDTH, 'regular', 9.5);
    this.y += 16;
    this.place(clip(this.letter.organization.name, MAX_FIELD_CHARS), MARGIN.left, this.y, CONTENT_WIDTH, 'bold', 9.5);
    this.y += 16;
  }
}

function isZero(amount: string): boolean {
  for (const char of amount) if (char !== '0' && char !== '.' && char !== '-') return false;
  return true;
}

/** Address, organization number and VAT id of a party, as separate printed lines. */
function partyDetails(party: ClaimLetterParty): string[] {
  return [...addressLines(party), ...partyIdentifiers(party)];
}

function addressLines(party: ClaimLetterParty): string[] {
  return party.address.slice(0, MAX_ADDRESS_LINES).map((line) => clip(line, MAX_FIELD_CHARS));
}

function partyIdentifiers(party: ClaimLetterParty): string[] {
  const ids = [
    party.organizationNumber ? `Org. no. ${clip(party.organizationNumber, MAX_FIELD_CHARS)}` : null,
    party.vatId ? `VAT ${clip(party.vatId, MAX_FIELD_CHARS)}` : null,
  ].filter((part): part is string => part !== null);
  return ids.length > 0 ? [ids.join('  ·  ')] : [];
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

// ---------------------------------------------------------------------------------------------

/** "Page n of m" and the reference on every page, once the number of pages is known. */
function writeFooters(doc: PdfDoc, letter: ClaimLetter): void {
  const range = doc.bufferedPageRange();
  const total = range.count;
  for (let index = 0; index < total; index++) {
    doc.switchToPage(range.start + index);
    // Writing below the bottom margin must not start a new page.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 40;
    doc
      .save()
      .moveTo(MARGIN.left, y - 6)
      .lineTo(MARGIN.left + CONTENT_WIDTH, y - 6)
      .lineWidth(0.4)
      .strokeColor(COLOR.rule)
      .stroke()
      .restore();
    doc.font(LETTER_FONTS.regular.name).fontSize(7.5).fillColor(COLOR.muted);
    // One line each: a long name is cut with an ellipsis rather than running into the page number.
    const oneLine = { height: 10, ellipsis: true, lineGap: 0 };
    doc.text(
      clip(`${letter.organization.name}  ·  Claim ${letter.reference}  ·  ${letter.supplier.name}`, 300),
      MARGIN.left,
      y,
      {
        ...oneLine,
        width: CONTENT_WIDTH - 100,
      },
    );
    doc.text(`Page ${index + 1} of ${total}`, MARGIN.left + CONTENT_WIDTH - 90, y, {
      ...oneLine,
      width: 90,
      align: 'right',
    });
    doc.page.margins.bottom = bottomMargin;
  }
}
