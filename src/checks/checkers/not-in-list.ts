// 5. A charged line the agreement's price list has no usable price for: no price item matches it,
// the matching price ran out before the invoice date, or the item is priced in another unit.
// No impact is claimed ("0.00"): whether unlisted items may be bought at all, and at what price,
// is the agreement's wording, not arithmetic. Agreements without any amount price item (none, or
// only rate terms such as a discount) have no price list to speak of and are not checked.
// Confidence: no match low (the supplier may word the item differently), expired price medium,
// other unit low. Correction: modify_invoice (the line exists; nothing is to be added).
// Lines that are charges ("Frakt", "Invoice fee") are not items: `feeNotAgreedChecker` below.
//
// 5b. A charge the agreement does not allow: a document-level charge or a charge line
// (`charges.ts`) that is for none of the agreement's fees. The whole charge is the overcharge.
// Agreements without price items say nothing about charges and are not checked. A document
// charge without reason or code is left alone when the agreement has two fees or more (it could
// be either). Confidence: high for a charge that names itself, medium for one that does not.
import { agreedFees, assignFee, chargeLineIds, invoiceCharges, type InvoiceCharge } from './charges.js';
import { quoteCharge } from './rate-terms.js';
import { lowerOf, matchPriceItem, notApplyingReason, type PriceItemMatch } from './match.js';
import { lineFigures, money } from './money.js';
import {
  agreementPricesSource,
  capitalize,
  fingerprint,
  invoiceSource,
  lineKey,
  lineLabel,
  numbered,
  priceItemSource,
  quoteLine,
  quotePriceItem,
} from './findings.js';
import type { CheckInput, CheckLine, Checker, Finding } from './types.js';

const CODE = 'item_not_in_agreement';

export const notInPriceListChecker: Checker = {
  code: CODE,
  title: 'Item not in the agreement price list',
  run(input) {
    if (
      input.invoice.documentType === 'credit_note' ||
      !input.agreement.priceItems.some((item) => item.priceType === 'amount')
    )
      return [];
    const charges = chargeLineIds(input);
    return input.invoice.lines.flatMap((line) => {
      const net = lineFigures(line).netAmount;
      if (net === null || net.lte(0) || charges.has(line.id)) return [];
      const match = matchPriceItem(line, input.agreement.priceItems, { invoiceDate: input.invoice.issueDate });
      const finding =
        match === null
          ? unlisted(input, line)
          : match.applies && match.unitsAgree !== false
            ? null
            : unpriced(input, line, match);
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

const notYetValid = (item: PriceItemMatch['priceItem'], date: string | null) =>
  item.validFrom != null && date !== null && item.validFrom > date;

const FEE_CODE = 'fee_not_agreed';

export const feeNotAgreedChecker: Checker = {
  code: FEE_CODE,
  title: 'Charge not in the agreement',
  run(input) {
    if (input.invoice.documentType === 'credit_note' || input.agreement.priceItems.length === 0) return [];
    const fees = agreedFees(input);
    const rateFees = fees.filter((item) => item.priceType === 'rate').length;
    // Document charges are told apart by their reason (or code) and how often it came before.
    const seen = new Map<string, number>();
    return invoiceCharges(input).flatMap((charge) => {
      const name = charge.charge ? (charge.charge.reason ?? charge.charge.reasonCode ?? '') : '';
      const occurrence = seen.get(name) ?? 0;
      if (charge.charge) seen.set(name, occurrence + 1);
      if (assignFee(input, charge, fees)) return [];
      const unnamed = charge.charge !== null && !charge.charge.reason && !charge.charge.reasonCode;
      if (unnamed && rateFees >= 2) return [];
      return [chargeNotAgreed(input, charge, `${name}#${occurrence}`, unnamed)];
    });
  },
};

function chargeNotAgreed(input: CheckInput, charge: InvoiceCharge, documentKey: string, unnamed: boolean): Finding {
  const { invoice, agreement } = input;
  const currency = invoice.currencyCode;
  const name = charge.text ?? charge.charge?.reasonCode ?? 'charge';
  const where = charge.line ? capitalize(lineLabel(charge.line)) : `The document charge "${name}"`;
  const listQuote = `The price list of "${agreement.title ?? agreement.id}" (${agreement.priceItems.length} item${agreement.priceItems.length === 1 ? '' : 's'}) has no fee or charge for "${name}"`;
  const amount = money(charge.amount, currency);
  return {
    checker: FEE_CODE,
    // A document charge has no line: its reason (or code) and occurrence name it.
    fingerprint: charge.line
      ? fingerprint(FEE_CODE, lineKey(charge.line))
      : fingerprint(FEE_CODE, 'document', documentKey),
    title: `Charge not in the agreement: ${name}`,
    explanation:
      `${where} [1] charges ${amount}${currency ? ` ${currency}` : ''}, and the agreement [2] allows no such fee or charge` +
      `${unnamed ? ' (the charge gives no reason; the agreement has no fee it could be)' : ''}. The whole charge is claimed.`,
    citations: numbered([
      {
        source: invoiceSource(),
        quote: charge.line ? quoteLine(invoice, charge.line) : quoteCharge(input, charge.charge!),
      },
      { source: agreementPricesSource(), quote: listQuote },
    ]),
    impactAmount: amount,
    expected: null,
    confidence: unnamed ? 'medium' : 'high',
    invoiceItemId: charge.line?.id ?? null,
    correctionType: charge.line ? 'modify_item' : 'modify_invoice',
  };
}
