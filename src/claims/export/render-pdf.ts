import PDFDocument from 'pdfkit';
import { LETTER_FONTS, parsedLetterFont } from './fonts.js';
import { MAX_FIELD_CHARS, MAX_NOTE_CHARS, showMoney } from './format.js';
import type { ClaimLetter, ClaimLetterTotal } from './letter.js';
import { writeParties, writeSubjectAndReference } from './letter-head.js';
import { LinesTable } from './lines-table.js';
import {
  clip,
  collect,
  COLOR,
  CONTENT_BOTTOM,
  CONTENT_WIDTH,
  MARGIN,
  PAGE,
  PdfLayout,
  type PdfDoc,
} from './pdf-layout.js';

// The claim letter a supplier's accounts team receives: who claims from whom, the reference to
// quote, every invoice line with what was charged, what was agreed (and where) and the difference,
// the totals per currency, the refunds already received and how to answer. A pure function of the
// letter: the same letter gives the same bytes (the PDF's dates come from `generatedAt`).

// "Kind regards," and the sender's name: kept on the page of the block before them.
const CLOSING_HEIGHT = 44;

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
  for (const font of Object.values(LETTER_FONTS))
    // pdfkit takes a parsed fontkit font (PDFFontFactory.open); its type declarations list only files and bytes.
    doc.registerFont(font.name, parsedLetterFont(font) as unknown as Buffer);

  const writer = new LetterWriter(doc, letter);
  writer.write();
  writeFooters(doc, letter);
  doc.end();
  return bytes;
}

function validDate(iso: string): Date {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
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

class LetterWriter {
  private readonly pdf: PdfLayout;
  private readonly linesTable: LinesTable;

  constructor(
    doc: PdfDoc,
    private readonly letter: ClaimLetter,
  ) {
    this.pdf = new PdfLayout(doc);
    // The table measures the invoice numbers now, before anything is written, as it always did:
    // the same fonts in the same order keep the bytes of a letter the same.
    this.linesTable = new LinesTable(this.pdf, letter);
  }

  write(): void {
    writeParties(this.pdf, this.letter);
    writeSubjectAndReference(this.pdf, this.letter);
    this.writeOpening();
    this.linesTable.write();
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
      this.pdf.use('regular', 9.5);
      return this.pdf.doc.heightOfString(text, { width: CONTENT_WIDTH, lineGap: 1.5 }) + 8;
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

  private writeOpening(): void {
    const { letter } = this;
    const contactName = letter.supplierContact?.name;
    this.pdf.paragraph(
      `Dear ${contactName ? clip(contactName, MAX_FIELD_CHARS) : 'Sir or Madam'},`,
      'regular',
      9.5,
      COLOR.text,
      6,
    );
    if (letter.status === 'cancelled')
      this.pdf.paragraph(
        'This claim has been withdrawn. This copy is for your records only; no action is needed.',
        'bold',
      );
    if (letter.status === 'completed')
      this.pdf.paragraph(
        'This claim has been settled. This copy is for your records only; no action is needed.',
        'bold',
      );

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
    this.pdf.paragraph(sentences.join(' '));
    this.pdf.y += 4;
  }
  // --- totals, refunds, answer ---

  private writeTotals(): void {
    this.pdf.heading('Totals per currency');
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
    this.pdf.simpleTable(columns, rows, 3);
  }

  private writeRefunds(keepAfter: number): void {
    // A short list of refunds stays with its heading (and with what must follow it).
    const rows = this.letter.refunds.length;
    const block = rows === 0 ? 20 : rows <= 5 ? 15 + rows * 17 + 8 : 40;
    this.pdf.heading('Refunds received', Math.min(block + keepAfter, CONTENT_BOTTOM - MARGIN.top - 40));
    if (this.letter.refunds.length === 0) {
      this.pdf.paragraph(
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
    this.pdf.simpleTable(columns, cells, 2, keepAfter);
  }

  private writeHowToRespond(keepAfter: number): void {
    const { letter } = this;
    if (letter.status === 'cancelled' || letter.status === 'completed') return;
    this.pdf.heading('How to respond');
    const [ask, dispute] = this.respondParagraphs();
    this.pdf.paragraph(ask);
    this.pdf.paragraph(dispute, 'regular', 9.5, COLOR.text, 8, keepAfter);
  }

  private writeNote(keepAfter: number): void {
    if (!this.letter.note || this.letter.note.trim() === '') return;
    const note = clip(this.letter.note.trim(), MAX_NOTE_CHARS);
    // The heading stays with its note (and the note with the closing) when they fit one page.
    this.pdf.heading(
      'Note',
      Math.min(this.pdf.height(note, 'regular', 9.5, CONTENT_WIDTH) + 8 + keepAfter, CONTENT_BOTTOM - MARGIN.top - 40),
    );
    this.pdf.paragraph(note, 'regular', 9.5, COLOR.text, 8, keepAfter);
  }

  private writeClosing(): void {
    this.pdf.ensureSpace(CLOSING_HEIGHT);
    this.pdf.y += 6;
    this.pdf.place('Kind regards,', MARGIN.left, this.pdf.y, CONTENT_WIDTH, 'regular', 9.5);
    this.pdf.y += 16;
    this.pdf.place(
      clip(this.letter.organization.name, MAX_FIELD_CHARS),
      MARGIN.left,
      this.pdf.y,
      CONTENT_WIDTH,
      'bold',
      9.5,
    );
    this.pdf.y += 16;
  }
}

function isZero(amount: string): boolean {
  for (const char of amount) if (char !== '0' && char !== '.' && char !== '-') return false;
  return true;
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
