// The claim a supplier receives, as plain data: what the claim export renders (PDF letter, XLSX,
// CSV). Built from the database by the claims service; rendered by pure functions beside this
// file, so the layout can be tested without a stack. Amounts are exact decimal strings.

export interface ClaimLetterParty {
  name: string;
  organizationNumber: string | null;
  vatId: string | null;
  /** Postal address lines, as recorded; empty when unknown. */
  address: string[];
}

export interface ClaimLetterLine {
  alertId: string;
  alertStatus: 'pending' | 'claimed' | 'credited' | 'dismissed';
  invoiceId: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  issueDate: string | null;
  /** The invoice line's own id or position as printed on the invoice; null for whole-invoice alerts. */
  lineReference: string | null;
  description: string | null;
  quantity: string | null;
  unit: string | null;
  chargedUnitPrice: string | null;
  agreedUnitPrice: string | null;
  chargedAmount: string | null;
  agreedAmount: string | null;
  /** What the supplier owes back for this alert (the alert's impact), in `currencyCode`. */
  difference: string;
  currencyCode: string;
  title: string;
  explanation: string;
  /** What was agreed, for a person: the price item ("Price list 2026, item 'Consulting': 350.00 EUR per DAY") or a quoted document passage. */
  citation: string | null;
}

export interface ClaimLetterTotal {
  currencyCode: string;
  claimed: string;
  refunded: string;
  /** claimed - refunded, never below zero (a refund beyond the claim leaves nothing outstanding). */
  outstanding: string;
}

export interface ClaimLetterRefund {
  /** YYYY-MM-DD */
  date: string;
  amount: string;
  currencyCode: string;
  reference: string | null;
}

export interface ClaimLetter {
  /** The reference the supplier quotes in its answer and on its credit note. */
  reference: string;
  title: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
  /** Timestamps, ISO 8601 UTC. */
  createdAt: string;
  generatedAt: string;
  organization: ClaimLetterParty;
  supplier: ClaimLetterParty;
  /** Who at the supplier the claim is addressed to, when recorded. */
  supplierContact: { name: string | null; email: string | null } | null;
  agreement: { id: string; title: string; startDate: string | null; endDate: string | null };
  /** Free text from the claim (a note to the supplier), or null. */
  note: string | null;
  /** Ordered by invoice issue date, invoice number, line reference. */
  lines: ClaimLetterLine[];
  /** One row per currency, never summed across currencies; ordered by currency code. */
  totals: ClaimLetterTotal[];
  refunds: ClaimLetterRefund[];
}
