// 2b. An agreed price in another currency that cannot be converted: neither the invoice's own
// exchange rate nor a central bank rate for the issue date covers the pair. One finding per
// currency pair (not per line), with no impact guessed ("0.00") and low confidence; the unit
// price checker leaves those lines alone rather than compare them at a made-up rate.
import {
  fingerprint,
  invoiceSource,
  lineLabel,
  numbered,
  priceItemSource,
  quoteLine,
  quotePriceItem,
} from './findings.js';
import { pricedLines, type PricedLine } from './pricing.js';
import type { CheckInvoice, Checker, Finding } from './types.js';

const CODE = 'exchange_rate_missing';

export const exchangeRateMissingChecker: Checker = {
  code: CODE,
  title: 'Exchange rate missing',
  run(input) {
    if (input.invoice.documentType === 'credit_note') return [];
    const byPair = new Map<string, PricedLine[]>();
    for (const priced of pricedLines(input)) {
      if (priced.conversion.kind !== 'missing') continue;
      const pair = `${priced.conversion.from}->${priced.conversion.to}`;
      const group = byPair.get(pair);
      if (group) group.push(priced);
      else byPair.set(pair, [priced]);
    }
    return [...byPair.entries()].map(([pair, lines]) => missingRate(input.invoice, pair, lines));
  },
};

function missingRate(invoice: CheckInvoice, pair: string, lines: PricedLine[]): Finding {
  const first = lines[0]!;
  if (first.conversion.kind !== 'missing') throw new Error('only lines without a rate are grouped here');
  const { from, to, description } = first.conversion;
  const items = [...new Map(lines.map((priced) => [priced.match.priceItem.id, priced.match.priceItem])).values()];
  const citations = [
    ...lines.map((priced) => ({ source: invoiceSource(), quote: quoteLine(invoice, priced.line) })),
    ...items.map((item) => ({ source: priceItemSource(item), quote: quotePriceItem(item) })),
  ];
  const lineRefs = lines.map((priced, index) => `${lineLabel(priced.line)} [${index + 1}]`).join(', ');
  const itemRefs = items.map((item, index) => `"${item.description}" [${lines.length + index + 1}]`).join(', ');
  return {
    checker: CODE,
    fingerprint: fingerprint(CODE, pair, invoice.issueDate),
    title: `Exchange rate ${from} to ${to} missing`,
    explanation:
      `The agreed price${items.length > 1 ? 's' : ''} of ${itemRefs} ${items.length > 1 ? 'are' : 'is'} in ${from} and the invoice is in ${to}, ` +
      `but there is ${description}. The price${lines.length > 1 ? 's' : ''} of ${lineRefs} could not be checked; ` +
      'no amount is estimated. Add the rate (or the price in the invoice currency) and check again.',
    citations: numbered(citations),
    impactAmount: '0.00',
    expected: null,
    confidence: 'low',
    invoiceItemId: lines.length === 1 ? first.line.id : null,
    correctionType: 'modify_invoice',
  };
}
