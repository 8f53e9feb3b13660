// 1. A line priced above its agreed amount price item.
// impact = (unit price / base quantity - agreed price per unit) * quantity, in the invoice currency.
// Confidence: the match's (certain only for the same article number and unit) lowered by the
// currency: the invoice's own rate is high, a central bank rate medium, a price item without a
// currency (taken to be the invoice's) high.
import { lowerOf } from './match.js';
import { halfMinorUnit, isMaterial, money, plain, priceString, showMoney } from './money.js';
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
  // A converted price is rarely a whole number of cents; charging it rounded is not an overcharge.
  if (conversion.kind === 'converted' && perUnit.lte(halfMinorUnit(currency))) return null;
  const impact = perUnit.times(quantity);
  if (!isMaterial(impact, currency)) return null;

  const item = match.priceItem;
  const unit = item.unit ?? line.unitCode ?? 'unit';
  const citations = [
    { source: invoiceSource(), quote: quoteLine(invoice, line) },
    { source: priceItemSource(item), quote: quotePriceItem(item) },
  ];
  let agreedText = `${showMoney(agreed, currency)} per ${unit} [2]`;
  if (conversion.kind === 'converted') {
    citations.push({ source: conversion.via === 'invoice' ? invoiceSource() : suppliedTextSource(), quote: capitalize(conversion.description) });
    agreedText = `${showMoney(priced.agreedPerUnit, item.currencyCode)} per ${unit} [2], which is ${showMoney(agreed, currency)} at ${conversion.description} [3]`;
  }
  const chargedText =
    priced.baseQuantity !== null && !priced.baseQuantity.eq(1)
      ? `${showMoney(chargedPerUnit, currency)} per ${unit} (${plain(priced.unitPrice)} per ${plain(priced.baseQuantity)})`
      : `${showMoney(chargedPerUnit, currency)} per ${unit}`;
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
    expected: [{ description: item.description, unit: item.unit ?? line.unitCode, currency_code: currency, price: { type: 'amount', amount: priceString(agreed) } }],
    confidence: lowerOf(match.confidence, currencyConfidence(priced)),
    invoiceItemId: line.id,
    correctionType: 'modify_item',
  };
}

function currencyConfidence(priced: PricedLine): Confidence {
  if (priced.conversion.kind === 'converted') return priced.conversion.confidence;
  return priced.match.priceItem.currencyCode === null ? 'high' : 'certain';
}
