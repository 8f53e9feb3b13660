import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { showMoney } from '../../../../src/claims/export/format.js';
import type { ClaimLetter } from '../../../../src/claims/export/letter.js';
import { renderClaimPdf } from '../../../../src/claims/export/render-pdf.js';
import { FORMULA_DESCRIPTION, letter, line, longLetter, SPECIAL_LETTERS, SUPPLIER_NAME, totalsOf } from './letters.js';
import { readPdf, type ReadPdf } from './poppler.js';

// The letter is read back the way a person and a machine read it: pages drawn as PNG by poppler's
// pdftoppm, text extracted by pdftotext, word boxes checked against the page's margins.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CONTENT = { left: 50, right: 595.28 - 50 };

/** Every printed word lies inside the left and right margins and on the page. */
function expectWithinMargins(pdf: ReadPdf): void {
  const outside = pdf.words.filter(
    (w) =>
      w.xMin < CONTENT.left - 0.5 || w.xMax > CONTENT.right + 0.5 || w.yMin < 0 || w.yMax > pdf.pageSize.height - 20,
  );
  expect(
    outside.map((w) => `${w.page}: ${w.text} [${w.xMin.toFixed(1)}..${w.xMax.toFixed(1)}, ${w.yMin.toFixed(1)}]`),
  ).toEqual([]);
}

/** A line of the laid-out text that starts with the currency and shows the amounts in order. */
function totalsLine(pdf: ReadPdf, currencyCode: string, amounts: string[]): string | undefined {
  return pdf.layoutText.split('\n').find((text) => {
    if (!text.trim().startsWith(`${currencyCode} `)) return false;
    let from = 0;
    for (const amount of amounts) {
      const at = text.indexOf(amount, from);
      if (at === -1) return false;
      from = at + amount.length;
    }
    return true;
  });
}

describe('claim letter PDF', () => {
  it('is a letter with the parties, the reference, the lines and the totals, in Nordic and German letters', async () => {
    const claim = letter();
    const pdf = await readPdf(await renderClaimPdf(claim), { png: true });
    const text = pdf.pageText.join(' ');

    expect(pdf.pngs.length).toBe(pdf.pages);
    for (const png of pdf.pngs) expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // The font is embedded (a subset of DejaVu Sans), never taken from the reader's system.
    expect(pdf.fonts).toMatch(/DejaVuSans\s+CID TrueType\s+Identity-H\s+yes/);

    expect(pdf.pageText[0]).toContain('Reference to quote');
    expect(text).toContain(claim.reference);
    expect(text).toContain(SUPPLIER_NAME);
    expect(text).toContain('Attn. Åsa Øberg');
    expect(text).toContain('Nordlys Eiendom AS');
    expect(text).toContain(`Special letters: ${SPECIAL_LETTERS}.`);
    expect(text).toContain('Agreement: Rammeavtale konsulenttjenester 2026 (1 January 2026 to 31 December 2026)');
    expect(text).toContain('1 June 2026');
    for (const invoice of ['INV-2026-0141', 'INV-2026-0187']) expect(text).toContain(invoice);
    // Charged and agreed unit prices, the difference, and where the price was agreed.
    expect(text).toContain('1,250.00');
    expect(text).toContain('1,100.00');
    expect(text).toContain('1,875.00');
    expect(text).toContain("Agreed: Price list 2026, item 'Consulting, senior': 1100.00 NOK per HUR");
    // A finding without an agreed price explains itself below the row.
    expect(text).toContain('The invoice charges an invoicing fee of 350.00 NOK');
    expect(totalsLine(pdf, 'NOK', ['3,005.50', '500.00', '2,505.50'])).toBeDefined();
    expect(totalsLine(pdf, 'NOK', ['2026-05-20', 'CN-5521', '500.00'])).toBeUndefined(); // refunds list starts with the date
    expect(pdf.layoutText).toMatch(/2026-05-20\s+CN-5521\s+500\.00\s+NOK/);
    expect(text).toContain('On 2 invoices we were charged more than agreed: the 3 lines are listed below');
    expect(text).toContain(
      'We claim 3,005.50 NOK back. After the refunds already received, 2,505.50 NOK is still outstanding.',
    );
    expect(text).toContain('Please issue a credit note for 2,505.50 NOK and quote the reference CLM-2026-0042');
    expect(text).toContain(`Page 1 of ${pdf.pages}`);
    expectWithinMargins(pdf);
  });

  it('paginates a long claim: header repeated, page numbers, every invoice and per-currency totals', async () => {
    const claim = longLetter();
    const pdf = await readPdf(await renderClaimPdf(claim), { png: true });
    const text = pdf.pageText.join(' ');

    expect(pdf.pages).toBeGreaterThan(1);
    expect(pdf.pngs.length).toBe(pdf.pages);
    pdf.pageText.forEach((page, index) => expect(page).toContain(`Page ${index + 1} of ${pdf.pages}`));
    // The table's header on the next page, so a page read alone still makes sense.
    for (const header of [
      'Invoice / date',
      'Line / description',
      'Quantity',
      'Charged unit',
      'Agreed unit',
      'Difference',
    ]) {
      expect(pdf.pageText[1]).toContain(header);
    }
    for (const invoice of new Set(claim.lines.map((l) => l.invoiceNumber))) expect(text).toContain(invoice);
    expect(claim.totals.map((t) => t.currencyCode)).toEqual(['EUR', 'NOK', 'SEK']);
    for (const total of claim.totals) {
      expect(
        totalsLine(pdf, total.currencyCode, [total.claimed, total.refunded, total.outstanding].map(showMoney)),
        total.currencyCode,
      ).toBeDefined();
    }
    const [eur, nok, sek] = claim.totals.map((t) => `${showMoney(t.claimed)} ${t.currencyCode}`);
    expect(text).toContain(`We claim ${eur}, ${nok} and ${sek} back.`);
    // The formula-looking description is printed as the text it is.
    expect(text.replaceAll(' ', '')).toContain(FORMULA_DESCRIPTION.replaceAll(' ', ''));
    // The long description wraps inside its column and is cut with an ellipsis, never overflowing.
    expect(text).toContain('Senior consulting on the migration of the warehouse');
    expectWithinMargins(pdf);
  });

  it('keeps invoice numbers whole in the invoice column', async () => {
    const numbers = ['KPTYLUD-2602/3', 'NORDLYS-FAKTURA-2026-000123/7', 'INV-2026-0141'];
    const claim = letter({
      lines: numbers.map((invoiceNumber, index) =>
        line({ alertId: `a${index}`, invoiceId: `inv-${index}`, invoiceNumber }),
      ),
    });
    const pdf = await readPdf(await renderClaimPdf(claim));
    // One word each: printed on one line, never broken at its hyphens or slashes.
    const words = new Set(pdf.words.map((w) => w.text));
    for (const number of numbers) expect(words.has(number), number).toBe(true);
    expectWithinMargins(pdf);
  });

  it('keeps the closing with the last table rows: a page never holds "Kind regards" alone', async () => {
    const lastBlock: Record<'in_progress' | 'completed', string> = {
      // An open claim ends with how to respond; a settled one with its refunds.
      in_progress: 'adjust the claim where you are right',
      completed: 'CN-5521',
    };
    for (const status of ['in_progress', 'completed'] as const) {
      for (let count = 1; count <= 30; count++) {
        const lines = Array.from({ length: count }, (_, index) =>
          line({ alertId: `a${index}`, lineReference: String(index + 1) }),
        );
        const refunds = [{ date: '2026-05-20', amount: '500.00', currencyCode: 'NOK', reference: 'CN-5521' }];
        const claim = letter({ status, lines, refunds, totals: totalsOf(lines, refunds), note: null });
        // pdftotext alone (pages end with a form feed): cheap enough for 60 letters.
        const pages = execFileSync('pdftotext', ['-', '-'], { input: await renderClaimPdf(claim) })
          .toString('utf8')
          .split('\f')
          .map((text) => text.replace(/\s+/g, ' '));
        const closingPage = pages.findIndex((text) => text.includes('Kind regards'));
        expect(closingPage, `${status}, ${count} lines`).toBeGreaterThanOrEqual(0);
        expect(pages[closingPage], `${status}, ${count} lines: page ${closingPage + 1}`).toContain(lastBlock[status]);
        // And with the last table rows: the refunds' last row shares the closing's page.
        expect(pages[closingPage], `${status}, ${count} lines: page ${closingPage + 1}`).toContain(
          '2026-05-20 CN-5521',
        );
      }
    }
  }, 180_000);

  it('keeps absurdly long texts on the page', async () => {
    const huge = 'Lang beskrivelse med æøå og ÄÖÜ '.repeat(3_000);
    const claim = letter({
      lines: [
        line({ description: huge, citation: huge, invoiceNumber: `INV-${'9'.repeat(200)}` }),
        line({ alertId: 'a2', description: 'x'.repeat(50_000) }),
      ],
      note: huge,
      title: huge,
      organization: {
        name: huge,
        organizationNumber: huge,
        vatId: null,
        address: Array.from({ length: 50 }, () => huge),
      },
      supplier: {
        name: `Leverandør ${'Å'.repeat(10_000)}`,
        organizationNumber: null,
        vatId: huge,
        address: Array.from({ length: 50 }, () => huge),
      },
      supplierContact: { name: huge, email: huge },
      agreement: { id: 'agr-1', title: huge, startDate: null, endDate: null },
      refunds: [{ date: '2026-05-20', amount: '1.00', currencyCode: 'NOK', reference: huge }],
    });
    const pdf = await readPdf(await renderClaimPdf(claim));
    expect(pdf.pageText.join(' ')).toContain(claim.reference);
    expectWithinMargins(pdf);
  });

  it('gives the same bytes for the same letter', async () => {
    const claim = letter();
    const [first, second] = await Promise.all([renderClaimPdf(claim), renderClaimPdf(structuredClone(claim))]);
    expect(first.equals(second)).toBe(true);
    const info = (await readPdf(first)).info;
    expect(info).toMatch(/CreationDate:\s+2026-06-01T09:15:00Z/);
    expect(info).toMatch(/Title:\s+Claim CLM-2026-0042/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    const later = await renderClaimPdf({ ...claim, generatedAt: '2026-06-02T10:00:00Z' });
    expect(later.equals(first)).toBe(false);
  });

  it('says so when the claim is withdrawn or settled, and asks for nothing then', async () => {
    const cancelled: ClaimLetter = { ...letter(), status: 'cancelled' };
    const cancelledText = (await readPdf(await renderClaimPdf(cancelled))).pageText.join(' ');
    expect(cancelledText).toContain('This claim has been withdrawn');
    expect(cancelledText).not.toContain('How to respond');

    const completed: ClaimLetter = { ...letter(), status: 'completed' };
    expect((await readPdf(await renderClaimPdf(completed))).pageText.join(' ')).toContain(
      'This claim has been settled',
    );
  });

  it('marks lines that are not (yet) claimed, and renders a claim without lines or refunds', async () => {
    const mixed = letter({
      lines: [
        line({ alertStatus: 'pending' }),
        line({
          alertId: 'a2',
          alertStatus: 'credited',
          lineReference: '5',
          chargedUnitPrice: '1312',
          agreedUnitPrice: '1100.5',
          difference: '-3',
        }),
      ],
    });
    const mixedText = (await readPdf(await renderClaimPdf(mixed))).pageText.join(' ');
    expect(mixedText).toContain('Under review, not yet claimed.');
    expect(mixedText).toContain('Already credited by you');
    // Unit prices recorded without scale still read as money.
    expect(mixedText).toContain('1,312.00 1,100.50 -3.00 NOK');

    const empty = letter({ lines: [], refunds: [], totals: [], supplierContact: null, note: null });
    const emptyText = (await readPdf(await renderClaimPdf(empty))).pageText.join(' ');
    expect(emptyText).toContain('No invoice lines are included in this export.');
    expect(emptyText).not.toContain('On 0 invoices');
    expect(emptyText).toContain('We have not received any refund for this claim so far.');
    expect(emptyText).toContain('Dear Sir or Madam,');
    expect(emptyText).toContain('Page 1 of 1');
  });
});
