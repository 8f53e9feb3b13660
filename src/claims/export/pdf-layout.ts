import { LETTER_FONTS, type LetterFont } from './fonts.js';

// The layout kit of a printed A4 document: the page, its colours, a cursor moving down the page,
// and text, paragraphs, headings and small tables placed at it (a new page when the room runs
// out). What the claim letter says and in which order: render-pdf.ts.

export type PdfDoc = PDFKit.PDFDocument;

export const PAGE = { width: 595.28, height: 841.89 } as const; // A4 in points
export const MARGIN = { top: 58, bottom: 62, left: 50, right: 50 } as const;
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
export const CONTENT_BOTTOM = PAGE.height - MARGIN.bottom;

export const COLOR = {
  text: '#1b1f24',
  muted: '#5b6470',
  accent: '#1f3a5f',
  band: '#eef2f7',
  rule: '#c9d1db',
  faintRule: '#e3e8ee',
  white: '#ffffff',
} as const;

export const CELL_PAD_X = 3;
// An invoice number too long for the widest column is set down to this size before it is cut.
const MIN_NUMBER_FONT_SIZE = 6;

export interface StackedLine {
  text: string;
  font: LetterFont;
  size: number;
  color?: string;
  gapAfter?: number;
}

export function collect(doc: PdfDoc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export class PdfLayout {
  y: number = MARGIN.top;

  constructor(readonly doc: PdfDoc) {}

  /** The size (down to MIN_NUMBER_FONT_SIZE) at which `text` fits `width` on one line, cut with an ellipsis if even that is too wide. */
  fitOneLine(text: string, font: LetterFont, size: number, width: number): { text: string; size: number } {
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

  use(font: LetterFont, size: number, color: string = COLOR.text): PdfDoc {
    return this.doc.font(LETTER_FONTS[font].name).fontSize(size).fillColor(color);
  }

  height(text: string, font: LetterFont, size: number, width: number): number {
    this.use(font, size);
    return this.doc.heightOfString(text, { width, lineGap: 0 });
  }

  /** Text at a fixed place that never flows onto another page (the caller made room). */
  place(
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
  paragraph(
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

  heading(text: string, keepWith = 40): void {
    this.ensureSpace(14 + keepWith);
    this.y += 6;
    this.place(text, MARGIN.left, this.y, CONTENT_WIDTH, 'bold', 10.5, COLOR.accent);
    this.y += 16;
  }

  ensureSpace(height: number): boolean {
    if (this.y + height <= CONTENT_BOTTOM) return false;
    this.doc.addPage();
    this.y = MARGIN.top;
    return true;
  }

  /** Lines one under the other; whatever would pass `bottom` is cut with an ellipsis or left out. */
  stack(
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

  /** A small table (totals, refunds) whose rows do not break across pages. */
  simpleTable(
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
}
