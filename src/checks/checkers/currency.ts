// Agreed prices in another currency, in the invoice currency (spec "Value rules"): the invoice's
// own exchange rate when it covers the pair, in either direction; otherwise the caller's central
// bank rate for the invoice issue date (asked for in both directions). No rate: no guess.
import { D, decOrNull, type Dec } from './money.js';
import type { CheckInvoice, Confidence, RateLookup } from './types.js';

export type Conversion =
  | { kind: 'same'; amount: Dec }
  | {
      kind: 'converted';
      amount: Dec;
      /** invoice-currency units per one unit of the price currency. */
      rate: Dec;
      via: 'invoice' | 'central_bank';
      /** Says which rate was used, for the explanation and the citation. */
      description: string;
      confidence: Confidence;
    }
  | { kind: 'missing'; from: string; to: string; date: string | null; description: string };

export function convertToInvoiceCurrency(
  amount: Dec,
  priceCurrency: string | null,
  invoice: CheckInvoice,
  rates: RateLookup,
): Conversion {
  const target = invoice.currencyCode;
  if (priceCurrency === null || target === null || priceCurrency.toUpperCase() === target.toUpperCase())
    return { kind: 'same', amount };
  const from = priceCurrency.toUpperCase();
  const to = target.toUpperCase();
  const own = invoiceRate(invoice, from, to);
  if (own) {
    return {
      kind: 'converted',
      amount: amount.times(own.rate),
      rate: own.rate,
      via: 'invoice',
      description: `the invoice's own exchange rate ${own.written}`,
      confidence: 'high',
    };
  }
  return centralBank(amount, from, to, invoice.issueDate, rates);
}

// The invoice states amount_in_target = amount_in_source * rate; the agreed price may be in
// either of the two currencies.
function invoiceRate(invoice: CheckInvoice, from: string, to: string): { rate: Dec; written: string } | null {
  const stated = invoice.exchangeRate;
  const rate = decOrNull(stated?.rate ?? null);
  if (!stated || rate === null || rate.lte(0)) return null;
  const source = stated.sourceCurrencyCode?.toUpperCase();
  const target = stated.targetCurrencyCode?.toUpperCase();
  const written = `1 ${source} = ${rate.toFixed()} ${target}`;
  if (source === from && target === to) return { rate, written };
  if (source === to && target === from) return { rate: new D(1).div(rate), written };
  return null;
}

function centralBank(amount: Dec, from: string, to: string, date: string | null, rates: RateLookup): Conversion {
  const missing = (): Conversion => ({
    kind: 'missing',
    from,
    to,
    date,
    description: date
      ? `no exchange rate from ${from} to ${to} for ${date}: the invoice states none for this pair and no central bank rate was available`
      : `no exchange rate from ${from} to ${to}: the invoice states none for this pair and has no issue date to look one up for`,
  });
  if (date === null) return missing();
  const direct = usable(rates(from, to, date));
  const inverse = direct ? null : usable(rates(to, from, date));
  const quote = direct ?? inverse;
  if (!quote) return missing();
  const rate = direct ? quote.rate : new D(1).div(quote.rate);
  const written = direct ? `1 ${from} = ${quote.rate.toFixed()} ${to}` : `1 ${to} = ${quote.rate.toFixed()} ${from}`;
  const publishedOn = quote.date === date ? `for ${date}` : `of ${quote.date} (the latest for ${date})`;
  return {
    kind: 'converted',
    amount: amount.times(rate),
    rate,
    via: 'central_bank',
    description: `the ${sourceName(quote.source)} rate ${written} ${publishedOn}`,
    // The day's central bank rate need not be the rate the parties priced with.
    confidence: 'medium',
  };
}

// The names the rates table stores (src/exchange-rates), as a reader knows them.
const SOURCE_NAMES: Record<string, string> = { ecb: 'European Central Bank', norges_bank: 'Norges Bank' };

function sourceName(source: string): string {
  return SOURCE_NAMES[source] ?? source;
}

function usable(quote: ReturnType<RateLookup>): { rate: Dec; date: string; source: string } | null {
  const rate = decOrNull(quote?.rate ?? null);
  if (!quote || rate === null || rate.lte(0)) return null;
  return { rate, date: quote.date, source: quote.source };
}
