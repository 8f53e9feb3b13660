import type { DocumentType, InvoiceLine, NormalizedInvoice, VatBreakdownEntry } from './model.js';
import { missingKeyFields } from './model.js';

/**
 * UNTDID 1001 document type codes that mean "credit note" (EN 16931 allows these for
 * credit notes): 81 credit note related to goods or services, 83 credit note related to
 * financial adjustments, 261 self-billed credit note, 262 consolidated credit note,
 * 296 credit note for price variation, 308 delcredere credit note, 381 credit note,
 * 396 factored credit note, 420 optical character reading credit note, 458 reversal of
 * debit, 532 forwarder's credit note.
 */
const CREDIT_NOTE_TYPE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

export function isCreditNoteTypeCode(code: string | null): boolean {
  return code !== null && CREDIT_NOTE_TYPE_CODES.has(code.trim());
}

/** The type code decides when it names a credit note; otherwise the document's own kind does. */
export function documentTypeFrom(typeCode: string | null, fallback: DocumentType): DocumentType {
  return isCreditNoteTypeCode(typeCode) ? 'credit_note' : fallback;
}

/**
 * Some formats (EHF 2.0 lines, for one) give a line's VAT category without its rate. When the
 * document's VAT breakdown has exactly one rate for that category, that rate is the line's.
 */
export function fillLineVatPercents(lines: InvoiceLine[], breakdown: VatBreakdownEntry[]): InvoiceLine[] {
  return lines.map((line) => {
    if (line.vatPercent !== null || line.vatCategory === null) return line;
    const rates = new Set(
      breakdown.filter((entry) => entry.category === line.vatCategory).map((entry) => entry.vatPercent),
    );
    const [onlyRate] = rates;
    return rates.size === 1 && onlyRate !== undefined ? { ...line, vatPercent: onlyRate } : line;
  });
}

/** Adds the extraction block of a structured (XML) read. */
export function withStructuredExtraction(invoice: Omit<NormalizedInvoice, 'extraction'>): NormalizedInvoice {
  return { ...invoice, extraction: { method: 'structured', linesReliable: true, missing: missingKeyFields(invoice) } };
}
