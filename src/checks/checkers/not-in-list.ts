// 5. A charged line the agreement's price list has no usable price for: no price item matches it,
// the matching price ran out before the invoice date, or the item is priced in another unit.
// No impact is claimed ("0.00"): whether unlisted items may be bought at all, and at what price,
// is the agreement's wording, not arithmetic. Agreements without any amount price item (none, or
// only rate terms such as a discount) have no price list to speak of and are not checked.
// Confidence: no match low (the supplier may word the item differently), expired price medium,
// other unit low. Correction: modify_invoice (the line exists; nothing is to be added).
import { lowerOf, matchPriceItem, notApplyingReason, type PriceItemMatch } from './match.js';
import { lineFigures } from './money.js';
import { agreementPricesSource, capitalize, fingerprint, invoiceSource, lineKey, lineLabel, numbered, priceItemSource, quoteLine, quotePriceItem } from './findings.js';
import type { CheckInput, CheckLine, Checker, Finding } from './types.js';

const CODE = 'item_not_in_agreement';

export const notInPriceListChecker: Checker = {
  code: CODE,
  title: 'Item not in the agreement price list',
  run(input) {
    if (input.invoice.documentType === 'credit_note' || !input.agreement.priceItems.some((item) => item.priceType === 'amount')) return [];
    return input.invoice.lines.flatMap((line) => {
      const net = lineFigures(line).netAmount;
      if (net === null || net.lte(0)) return [];
      const match = matchPriceItem(line, input.agreement.priceItems, { invoiceDate: input.invoice.issueDate });
      const finding = match === null ? unlisted(input, line) : match.applies && match.unitsAgree !== false ? null : unpriced(input, line, match);
      return finding ? [finding] : [];
    });
  },
};

function unlisted(input: CheckInput, line: CheckLine): Finding {
  const { invoice, agreement } = input;
  const listQuote = `The price list of "${agreement.title ?? agreement.id}" (${agreement.priceItems.length} item${agreement.priceItems.length === 1 ? '' : 's'}) has no item with ${
    line.sellerItemId ? `article number ${line.sellerItemId} or ` : ''
  }the description "${line.description ?? ''}"`;
  return {
    checker: CODE,
    fingerprint: fingerprint(CODE, lineKey(line), 'unlisted'),
    title: `Item not in the agreement price list: ${line.description ?? line.sellerItemId ?? `line ${line.lineNumber ?? line.position + 1}`}`,
    explanation: `${capitalize(lineLabel(line))} [1] matches no item of the agreement's price list [2], by article number or by description. Check whether the agreement allows it and at what price; no amount is claimed.`,
    citations: numbered([
      { source: invoiceSource(), quote: quoteLine(invoice, line) },
      { source: agreementPricesSource(), quote: listQuote },
    ]),
    impactAmount: '0.00',
    expected: null,
    confidence: 'low',
    invoiceItemId: line.id,
    correctionType: 'modify_invoice',
  };
}

function unpriced(input: CheckInput, line: CheckLine, match: PriceItemMatch): Finding {
  const item = match.priceItem;
  const expired = !match.applies;
  const why = expired
    ? notYetValid(item, input.invoice.issueDate)
      ? `${notApplyingReason(item, input.invoice.issueDate)}; no agreed price applies on that date`
      : `the agreed price was valid until ${item.validUntil}, and the invoice is dated ${input.invoice.issueDate}; no agreed price applies on that date`
    : `the agreement prices it per ${item.unit}, the invoice bills it per ${line.unitCode}; there is no agreed price for that unit`;
  return {
    checker: CODE,
    fingerprint: fingerprint(CODE, lineKey(line), expired ? 'expired' : 'other_unit', item.id),
    title: `${expired ? (notYetValid(item, input.invoice.issueDate) ? 'Agreed price not yet valid' : 'Agreed price expired') : 'Item billed in a unit the agreement does not price'}: ${item.description}`,
    explanation: `${capitalize(lineLabel(line))} [1] is price item "${item.description}" [2], but ${why}. No amount is claimed.`,
    citations: numbered([
      { source: invoiceSource(), quote: quoteLine(input.invoice, line) },
      { source: priceItemSource(item), quote: quotePriceItem(item) },
    ]),
    impactAmount: '0.00',
    expected: null,
    confidence: expired ? lowerOf(match.confidence, 'medium') : 'low',
    invoiceItemId: line.id,
    correctionType: 'modify_invoice',
  };
}

const notYetValid = (item: PriceItemMatch['priceItem'], date: string | null) => item.validFrom != null && date !== null && item.validFrom > date;
