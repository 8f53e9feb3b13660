// Learning a supplier's layout from one correction and reading its next invoice with it
// (docs/invoice-parsing.md, "Learning from a correction").
import { describe, expect, it } from 'vitest';
import { learnLayout } from '../../../../src/invoices/parsing/layout/learn.js';
import { buildLines } from '../../../../src/shared/layout/lines.js';
import type { ConfirmedValues } from '../../../../src/invoices/parsing/layout/memory.js';
import { readInvoiceFromWords } from '../../../../src/invoices/parsing/layout/reader.js';
import { ibansOf } from '../../../../src/invoices/parsing/layout/supplier-keys.js';
import { readPdfWords } from '../../../../src/invoices/parsing/pdf.js';
import { totalsOf, unusualPdfInvoice, type UnusualInvoice } from '../../../support/unusual-pdf-invoices.js';

const FIRST: UnusualInvoice = {
  supplier: 'Fjordmontasje AS',
  orgNumber: null,
  iban: 'NO93 8601 1117 947',
  ledgerKey: 'LK-48213',
  issueDate: '2025-03-14',
  settlementDay: '2025-04-13',
  lines: [
    { description: 'Mounting work', quantity: '3', unitPrice: '850.00' },
    { description: 'Brackets', quantity: '12', unitPrice: '45.50' },
  ],
};
const SECOND: UnusualInvoice = {
  ...FIRST,
  ledgerKey: 'LK-50977',
  issueDate: '2025-05-02',
  settlementDay: '2025-06-01',
  lines: [{ description: 'Inspection', quantity: '2', unitPrice: '1200.00' }],
};

function confirmed(invoice: UnusualInvoice): ConfirmedValues {
  const totals = totalsOf(invoice);
  return {
    invoiceNumber: invoice.ledgerKey,
    issueDate: invoice.issueDate,
    dueDate: invoice.settlementDay,
    orderReference: null,
    contractReference: null,
    buyerReference: null,
    totals: { taxExclusive: totals.net, vatTotal: totals.vat, taxInclusive: totals.gross, payable: totals.gross },
    lines: totals.lines.map((line) => ({ ...line, netAmount: line.amount })),
    corrected: ['invoiceNumber', 'dueDate'],
  };
}

async function wordsOf(invoice: UnusualInvoice) {
  const words = await readPdfWords(new Uint8Array(await unusualPdfInvoice(invoice)));
  if (!words) throw new Error('no words');
  return words;
}

describe('layout memory', () => {
  it('remembers each confirmed value by its label and the columns of the corrected lines', async () => {
    const memory = learnLayout(await wordsOf(FIRST), confirmed(FIRST));
    expect(memory.fields.invoiceNumber?.[0]).toMatchObject({ label: 'ledger key', direction: 'right' });
    expect(memory.fields.dueDate?.[0]).toMatchObject({ label: 'settlement day', direction: 'right' });
    expect(memory.fields['totals.taxInclusive']?.[0]).toMatchObject({ label: 'total' });
    expect(memory.columns?.amount?.x1).toBeCloseTo(555, 0);
    expect(memory.misread).toEqual(['invoiceNumber', 'dueDate']);
  });

  it('reads the next invoice of the supplier with it, and without it the generic reading stands', async () => {
    const first = readInvoiceFromWords(await wordsOf(FIRST));
    if (first.kind !== 'invoice') throw new Error(first.kind);
    expect(first.invoice.invoiceNumber).toBeNull();
    const supplierKeys = first.invoice.extraction.supplierKeys ?? [];
    expect(supplierKeys).toEqual(['iban:NO9386011117947']);
    const memory = learnLayout(await wordsOf(FIRST), confirmed(FIRST));

    const words = await wordsOf(SECOND);
    const second = readInvoiceFromWords(words, { memories: [{ supplierKeys, memory }] });
    if (second.kind !== 'invoice') throw new Error(second.kind);
    expect(second.invoice).toMatchObject({ invoiceNumber: 'LK-50977', dueDate: '2025-06-01' });
    expect(second.invoice.extraction).toMatchObject({ needsReview: false });
    expect(second.invoice.extraction.layoutMemory?.fields).toContain('invoiceNumber');

    // Another supplier's memory (no shared key) is not used.
    const unrelated = readInvoiceFromWords(words, { memories: [{ supplierKeys: ['org:123456789'], memory }] });
    if (unrelated.kind !== 'invoice') throw new Error(unrelated.kind);
    expect(unrelated.invoice.invoiceNumber).toBeNull();
    expect(unrelated.invoice.extraction.layoutMemory).toBeUndefined();
  });

  it('ignores a memory whose labels the page no longer prints', async () => {
    const memory = learnLayout(await wordsOf(FIRST), confirmed(FIRST));
    memory.fields = { invoiceNumber: [{ ...memory.fields.invoiceNumber![0]!, label: 'document key' }] };
    const outcome = readInvoiceFromWords(await wordsOf(SECOND), {
      memories: [{ supplierKeys: ['iban:NO9386011117947'], memory }],
    });
    if (outcome.kind !== 'invoice') throw new Error(outcome.kind);
    expect(outcome.invoice.invoiceNumber).toBeNull();
    expect(outcome.warnings.join(' ')).toMatch(/did not fit/);
  });

  it('finds IBANs only where their check digits hold', () => {
    const word = (text: string, x: number) => ({ text, x, y: 100, width: 30, height: 9, page: 1 });
    const lines = buildLines([
      word('IBAN', 10),
      word('NO93', 50),
      word('8601', 90),
      word('1117', 130),
      word('947', 170),
    ]);
    expect(ibansOf(lines)).toEqual(['NO9386011117947']);
    const wrong = buildLines([
      word('IBAN', 10),
      word('NO94', 50),
      word('8601', 90),
      word('1117', 130),
      word('947', 170),
    ]);
    expect(ibansOf(wrong)).toEqual([]);
  });
});
