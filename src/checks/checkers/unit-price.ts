// 1. A line priced above its agreed amount price item.
// impact = (net price per unit - agreed price per unit) * quantity, in the invoice currency. The
// net price per unit is unit price / base quantity after the line's allowances and charges
// (pricing.ts); the agreed price per unit goes through the price item's unit conversion when the
// line bills another unit ("1 förp = 10 EA").
// Confidence: the match's (certain only for the same article number and the unit as written; a
// unit read through the unit table is at most high) lowered by the currency: the invoice's own
// rate is high, a central bank rate medium, a price item without a currency (taken to be the
// invoice's) high.
import { lowerOf } from './match.js';
import { halfMinorUnit, isMaterial, lineRoundingTolerance, money, plain, priceString, showMoney } from './money.js';
import { pricedLines, type PricedLine } from './pricing.js';
import {
  capitalize,
  fingerprint,
  invoiceSource,
  lineKey,
  lineLabel,
  numbered,
  priceItemSource,
  quoteLine,
  quotePriceItem,
  suppliedTextSource,
} from './findings.js';
import type { CheckInput, Checker, Confidence, Finding } from './types.js';

const CODE = 'unit_price_above_agreed';

export const unitPriceChecker: Checker = {
  code: CODE,
  title: 'Unit price above the agreed price',
  run(input) {
    // Credit notes give money back; their prices are not charges (docs/checks.md).
    if (input.invoice.documentType === 'credit_note') return [];
    return pricedLines(input).flatMap((priced) => {
      const finding = overcharge(input, priced);
      return finding ? [finding] : [];
    });
  },
};

function overcharge(input: CheckInput, priced: PricedLine): Finding | null {
  const { invoice } = input;
  const { line, match, quantity, chargedPerUnit, conversion } = priced;
  if (conversion.kind === 'missing' || quantity.lte(0)) return null;
  const currency = invoice.currencyCode;
  const agreed = conversion.amount;
  const perUnit = chargedPerUnit.minus(agreed);
  if (perUnit.lte(0)) return null;
  // A converted price (another currency or unit) is rarely a whole number of cents; charging it
  // rounded is not an overcharge.
  const convertedPrice = conversion.kind === 'converted' || !match.unitFactor.eq(1);
  if (convertedPrice && perUnit.lte(halfMinorUnit(currency))) return null;
  const impact = perUnit.times(quantity);
  if (!isMaterial(impact, currency)) return null;
  // A net price worked out from line allowances cannot always land on whole cents per unit: up to
  // the organization's line rounding tolerance on the line is rounding, not an overcharge.
  if (priced.chargedFrom !== 'price' && impact.lte(lineRoundingTolerance(input.settings, currency))) return null;

  const item = match.priceItem;
  const unit = match.unitFactor.eq(1) ? (item.unit ?? line.unitCode ?? 'unit') : (line.unitCode ?? 'unit');
  const citations = [
    { source: invoiceSource(), quote: quoteLine(invoice, line) },
    { source: priceItemSource(item), quote: quotePriceItem(item) },
  ];
  let agreedText = `${showMoney(agreed, currency)} per ${unit} [2]`;
  if (!match.unitFactor.eq(1)) {
    const perItemUnit = priced.agreedPerUnit.div(match.unitFactor);
    agreedText = `${showMoney(perItemUnit, item.currencyCode)} per ${item.unit ?? 'unit'} [2], which is ${showMoney(priced.agreedPerUnit, item.currencyCode)} per ${unit} at ${match.unitConversion}`;
    if (conversion.kind === 'converted') agreedText += `, ${showMoney(agreed, currency)}`;
  } else if (conversion.kind === 'converted') {
    agreedText = `${showMoney(priced.agreedPerUnit, item.currencyCode)} per ${unit} [2], which is ${showMoney(agreed, currency)}`;
  }
  if (conversion.kind === 'converted') {
    citations.push({
      source: conversion.via === 'invoice' ? invoiceSource() : suppliedTextSource(),
      quote: capitalize(conversion.description),
    });
    agreedText += ` at ${conversion.description} [3]`;
  }
  let chargedText =
    priced.baseQuantity !== null && !priced.baseQuantity.eq(1)
      ? `${showMoney(chargedPerUnit, currency)} per ${unit} (${plain(priced.unitPrice)} per ${plain(priced.baseQuantity)})`
      : `${showMoney(chargedPerUnit, currency)} per ${unit}`;
  if (priced.chargedFrom === 'line_allowances') {
    const adjustment = priced.lineAdjustment;
    chargedText = `${showMoney(chargedPerUnit, currency)} per ${unit} after its line ${adjustment.lt(0) ? 'allowances' : 'charges'} (price ${plain(priced.pricePerUnit)} ${adjustment.lt(0) ? '-' : '+'} ${adjustment.abs().toFixed(2)} over ${plain(quantity)} ${unit})`;
  } else if (priced.chargedFrom === 'net_amount') {
    chargedText = `${showMoney(chargedPerUnit, currency)} per ${unit} net (net amount ${line.netAmount?.toString()} over ${plain(quantity)} ${unit}; price ${plain(priced.pricePerUnit)})`;
  }
  const explanation =
    `${capitalize(lineLabel(line))} charges ${chargedText} [1]; the agreed price is ${agreedText}. ` +
    `That is ${showMoney(perUnit, currency)} per ${unit} too much on ${plain(quantity)} ${unit}: ${money(impact, currency)} ${currency ?? ''}`.trimEnd() +
    `. Matched because ${match.reason}.`;
  return {
    checker: CODE,
    fingerprint: fingerprint(CODE, lineKey(line), item.id),
    title: `Unit price above the agreed price: ${item.description}`,
    explanation,
    citations: numbered(citations),
    impactAmount: money(impact, currency),
    expected: [
      {
        description: item.description,
        unit: match.unitFactor.eq(1) ? (item.unit ?? line.unitCode) : line.unitCode,
        currency_code: currency,
        price: { type: 'amount', amount: priceString(agreed) },
      },
    ],
    confidence: lowerOf(match.confidence, currencyConfidence(priced)),
    invoiceItemId: line.id,
    correctionType: 'modify_item',
  };
}

function currencyConfidence(priced: PricedLine): Confidence {
  if (priced.conversion.kind === 'converted') return priced.conversion.confidence;
  return priced.match.priceItem.currencyCode === null ? 'high' : 'certain';
}
