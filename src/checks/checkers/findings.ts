// Building blocks of a finding: fingerprints, citations and the words that quote the evidence.
import { createHash } from 'node:crypto';
import { decOrNull, plain, showMoney, type Dec } from './money.js';
import { normalizeDescription, normalizeItemId } from './text.js';
import type { CheckInvoice, CheckLine, CheckPriceItem, Citation, CitationSource } from './types.js';

/**
 * `checker:` + 32 hex digits of a SHA-256 over what identifies the problem (line identity, price
 * item, currency pair...), never over amounts: a re-run that finds the same problem, even with
 * corrected figures, gives the same fingerprint.
 */
export function fingerprint(checker: string, ...parts: (string | number | null)[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([checker, ...parts]))
    .digest('hex');
  return `${checker}:${digest.slice(0, 32)}`;
}

/** What identifies a line across re-imports and edits: its number (or position) and its item. */
export function lineKey(line: CheckLine): string {
  return `${line.lineNumber ?? `#${line.position}`}|${normalizeItemId(line.sellerItemId) ?? normalizeDescription(line.description) ?? ''}`;
}

export function lineLabel(line: CheckLine): string {
  const number = line.lineNumber ?? String(line.position + 1);
  return `line ${number}${line.description ? ` "${line.description}"` : ''}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Numbers the citations [1], [2]... in the order given. */
export function numbered(citations: { source: CitationSource; quote: string }[]): Citation[] {
  return citations.map((citation, index) => ({ source_ref: index + 1, citation }));
}

export function invoiceSource(): CitationSource {
  return { source_type: 'invoice', document_id: null };
}

export function priceItemSource(item: CheckPriceItem): CitationSource {
  return { source_type: 'agreement_prices', document_id: item.sourceDocumentId, price_item_id: item.id };
}

export function agreementPricesSource(): CitationSource {
  return { source_type: 'agreement_prices', document_id: null, price_item_id: null };
}

export function suppliedTextSource(): CitationSource {
  return { source_type: 'supplied_text', document_id: null };
}

/** "Invoice 1001, line 2: Copy paper A4 (article 1001), 4 BX x 12.50 per 1 = 50.00" */
export function quoteLine(invoice: CheckInvoice, line: CheckLine): string {
  const parts: string[] = [
    `Invoice ${invoice.invoiceNumber ?? invoice.id}, line ${line.lineNumber ?? line.position + 1}: ${line.description ?? '(no description)'}`,
  ];
  if (line.sellerItemId) parts.push(` (article ${line.sellerItemId})`);
  const quantity = decOrNull(line.quantity);
  const price = decOrNull(line.unitPrice);
  const base = decOrNull(line.priceBaseQuantity);
  const net = decOrNull(line.netAmount);
  if (quantity) parts.push(`, quantity ${plain(quantity)}${line.unitCode ? ` ${line.unitCode}` : ''}`);
  if (price)
    parts.push(
      `, unit price ${plain(price)} ${invoice.currencyCode ?? ''}`.trimEnd() +
        (base && !base.eq(1) ? ` per ${plain(base)}` : ''),
    );
  if (net) parts.push(`, net amount ${net.toFixed(Math.max(2, net.decimalPlaces()))}`);
  if (line.periodStart || line.periodEnd) parts.push(`, period ${line.periodStart ?? '?'} to ${line.periodEnd ?? '?'}`);
  return parts.join('');
}

/** "Copy paper A4 (article 1001): 10.00 NOK per box, valid until 2026-12-31" */
export function quotePriceItem(item: CheckPriceItem): string {
  const head = `${item.description}${item.sellerItemId ? ` (article ${item.sellerItemId})` : ''}`;
  const price =
    item.priceType === 'amount'
      ? `${amountText(decOrNull(item.amount), item.currencyCode)}${item.unit ? ` per ${item.unit}` : ''}`
      : `${percent(decOrNull(item.fraction))} of ${item.basis ?? '(no basis)'}`;
  const conversions = (item.unitConversions ?? []).map((c) => `1 ${c.fromUnit} = ${c.quantity.toString()} ${c.toUnit}`);
  return `${head}: ${price}${conversions.length > 0 ? ` (${conversions.join(', ')})` : ''}${item.validFrom ? `, valid from ${item.validFrom}` : ''}${item.validUntil ? `, valid until ${item.validUntil}` : ''}`;
}

function amountText(amount: Dec | null, currencyCode: string | null): string {
  return amount === null ? '?' : showMoney(amount, currencyCode);
}

export function percent(fraction: ReturnType<typeof decOrNull>): string {
  return fraction === null ? '?' : `${fraction.times(100).toFixed()} %`;
}
