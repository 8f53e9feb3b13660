/** Access to the shared sample files (../shared/samples beside the repository). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseInvoiceDocument } from '../../../../src/invoices/parsing/index.js';
import type { InvoiceOutcome, ParseOutcome } from '../../../../src/invoices/parsing/index.js';
import { parseOutcomeSchema } from '../../../../src/invoices/parsing/schema.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const samplesRoot = path.resolve(repoRoot, '../shared/samples');

export function sampleBytes(relativePath: string): Uint8Array {
  return new Uint8Array(readFileSync(path.resolve(samplesRoot, relativePath)));
}

/** Parses and checks the invariants every outcome must keep: schema-valid and plain JSON. */
export async function parseChecked(bytes: Uint8Array, fileName?: string): Promise<ParseOutcome> {
  const outcome = await parseInvoiceDocument({ bytes, fileName });
  expect(parseOutcomeSchema.safeParse(outcome).error).toBeUndefined();
  expect(JSON.parse(JSON.stringify(outcome))).toEqual(outcome);
  return outcome;
}

export async function parseSample(relativePath: string): Promise<ParseOutcome> {
  return parseChecked(sampleBytes(relativePath), path.basename(relativePath));
}

export async function parseInvoiceSample(relativePath: string): Promise<InvoiceOutcome> {
  const outcome = await parseSample(relativePath);
  if (outcome.kind !== 'invoice')
    throw new Error(`${relativePath}: expected an invoice, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The columns of the samples README table. */
export interface ExpectedSample {
  file: string;
  format: InvoiceOutcome['format'];
  documentType: 'invoice' | 'credit_note';
  typeCode: string | null;
  currency: string;
  taxCurrency?: string | null;
  number: string;
  issueDate: string;
  supplier: string;
  taxInclusive: string;
  payable: string | null;
  lines: number;
}

export async function expectSampleValues(expected: ExpectedSample): Promise<InvoiceOutcome> {
  const outcome = await parseInvoiceSample(expected.file);
  const { invoice } = outcome;
  expect({
    format: outcome.format,
    documentType: invoice.documentType,
    typeCode: invoice.typeCode,
    currency: invoice.currencyCode,
    number: invoice.invoiceNumber,
    issueDate: invoice.issueDate,
    supplier: invoice.supplier.name,
    taxInclusive: invoice.totals.taxInclusive,
    payable: invoice.totals.payable,
    lines: invoice.lines.length,
  }).toEqual({
    format: expected.format,
    documentType: expected.documentType,
    typeCode: expected.typeCode,
    currency: expected.currency,
    number: expected.number,
    issueDate: expected.issueDate,
    supplier: expected.supplier,
    taxInclusive: expected.taxInclusive,
    payable: expected.payable,
    lines: expected.lines,
  });
  if (expected.taxCurrency !== undefined) expect(invoice.taxCurrencyCode).toBe(expected.taxCurrency);
  expect(invoice.extraction.method).toBe('structured');
  return outcome;
}
