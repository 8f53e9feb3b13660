import { describe, expect, it } from 'vitest';
import { outcomes, readCsvText, rowAt } from './fixtures.js';

describe('row outcomes', () => {
  it('accepts good rows and rejects broken ones without stopping', async () => {
    const text = [
      'Art.nr;Varenavn;Enhet;Pris;Gyldig til',
      '100;Kabel;m;12,50;31.12.2026',
      '101;Bryter;stk;abc;',
      '102;Plugg;stk;-5;',
      '103;;stk;4,00;',
      '104;Stikk;stk;;',
      ';Kapittel 2: Rør;;;',
      '105;Rør;m;9,90;03/04/2026',
      '106;Kontakt;stk;1,234;',
      '',
      'Totalt;;;9999;',
      '107;Klemme;stk;2,00;2026-06-30',
    ].join('\n');
    const result = await readCsvText(text);
    expect(outcomes(result)).toEqual([
      '2 accepted',
      "3 rejected: price 'abc' is not a number",
      "4 rejected: price '-5' is negative",
      '5 rejected: no description',
      '6 rejected: no price',
      '7 rejected: no price (looks like a heading or a note)',
      "8 rejected: valid until '03/04/2026' is ambiguous: 3 April or 4 March 2026? write it as YYYY-MM-DD",
      "9 rejected: price '1,234' is ambiguous: 1234 or 1.234?",
      "11 rejected: looks like a totals row ('Totalt'), not an item",
      '12 accepted',
    ]);
    expect(result.complete).toBe(true);
    expect(result.failure).toBeUndefined();
    expect(rowAt(result, 2).item).toEqual({
      description: 'Kabel',
      sellerItemId: '100',
      unit: 'm',
      currencyCode: 'NOK',
      price: { type: 'amount', amount: '12.5' },
      validFrom: null,
      validUntil: '2026-12-31',
    });
    expect(rowAt(result, 12).item?.validUntil).toBe('2026-06-30');
  });

  it('reads a price rise agreed ahead: a "valid from" column, and refuses a start after the end', async () => {
    const text = [
      'Art.nr;Varenavn;Enhet;Pris;Gyldig fra;Gyldig til',
      '100;Kaffe;kg;12,00;01.03.2026;',
      '101;Te;kg;9,00;2026-07-01;2026-06-30',
    ].join('\n');
    const result = await readCsvText(text);
    expect(result.sheets[0]?.columns).toMatchObject({ validFrom: 'Gyldig fra', validUntil: 'Gyldig til' });
    expect(rowAt(result, 2).item).toMatchObject({ description: 'Kaffe', validFrom: '2026-03-01', validUntil: null });
    expect(outcomes(result)[1]).toBe('3 rejected: valid from 2026-07-01 is after valid until 2026-06-30');
  });

  it('reports every problem of a row at once', async () => {
    const result = await readCsvText('Item;Price;Valid until\n;abc;someday\n');
    expect(result.rows[0]?.reason).toBe(
      "no description; price 'abc' is not a number; valid until 'someday' is not a date (use YYYY-MM-DD, dd.mm.yyyy or dd/mm/yyyy)",
    );
  });

  it('rejects a header repeated inside the data', async () => {
    const result = await readCsvText('Item;Price\nBolt;1\nItem;Price\nNut;2\n');
    expect(outcomes(result)).toEqual(['2 accepted', '3 rejected: repeats the header row', '4 accepted']);
  });

  it('flags "Sum" and "Yhteensä" rows without article numbers as totals, but keeps products named so', async () => {
    const result = await readCsvText(
      'Tuote;Yksikkö;Hinta;Tuotenumero\nYhteensä;;120,00;\nSum;;5;\nSum pump;kpl;150,00;SP-1\n',
    );
    expect(outcomes(result)).toEqual([
      "2 rejected: looks like a totals row ('Yhteensä'), not an item",
      "3 rejected: looks like a totals row ('Sum'), not an item",
      '4 accepted',
    ]);
  });
});

describe('currencies in rows', () => {
  it('lets a currency in the price cell override the default', async () => {
    const result = await readCsvText('Item;Price\nA;12 EUR\nB;€ 12\nC;kr 120,00\nD;$ 5\nE;12 XYZ\nF;SEK 3\n', {
      defaultCurrency: 'NOK',
    });
    expect(result.rows.map((row) => row.item?.currencyCode ?? row.reason)).toEqual([
      'EUR',
      'EUR',
      'NOK',
      "currency '$' could be USD, CAD, AUD, NZD, SGD, HKD or MXN; write the currency code",
      "currency 'XYZ' is not an ISO 4217 code",
      'SEK',
    ]);
  });

  it('uses a currency column and rejects a row whose currencies disagree', async () => {
    const result = await readCsvText(
      'Item;Price;Currency\nA;12;SEK\nB;12 EUR;EUR\nC;12 EUR;DKK\nD;kr 5;DKK\nE;5;Euro\n',
    );
    expect(result.rows.map((row) => row.item?.currencyCode ?? row.reason)).toEqual([
      'SEK',
      'EUR',
      'currency is unclear: the currency column says DKK, the price says EUR',
      'DKK',
      "currency 'Euro' is not an ISO 4217 code",
    ]);
  });

  it('takes a currency named in the price header', async () => {
    const result = await readCsvText('Item;Price (EUR)\nA;12\nB;12 SEK\n', { defaultCurrency: 'NOK' });
    expect(result.rows.map((row) => row.item?.currencyCode ?? row.reason)).toEqual([
      'EUR',
      'currency is unclear: the price header says EUR, the price says SEK',
    ]);
  });
});

describe('rate rows', () => {
  it('turns a percent into a fraction and needs a basis', async () => {
    const text = [
      'Description;Fee %;Basis',
      'Invoice fee;5;invoice subtotal',
      'Freight;2,5 %;freight amount',
      'Handling;1;',
      'Bad;x;invoice subtotal',
    ].join('\n');
    const result = await readCsvText(text, { defaultCurrency: 'EUR' });
    expect(outcomes(result)).toEqual([
      '2 accepted',
      '3 accepted',
      '4 rejected: a rate needs a basis',
      "5 rejected: rate 'x' is not a number",
    ]);
    expect(rowAt(result, 2).item).toEqual({
      description: 'Invoice fee',
      sellerItemId: null,
      unit: null,
      currencyCode: 'EUR',
      price: { type: 'rate', fraction: '0.05', basis: 'invoice subtotal' },
      validFrom: null,
      validUntil: null,
    });
    expect(rowAt(result, 3).item?.price).toEqual({ type: 'rate', fraction: '0.025', basis: 'freight amount' });
  });

  it('reads "5 %" in a price column as a rate', async () => {
    const result = await readCsvText('Beskrivelse;Pris;Grunnlag\nFakturagebyr;5 %;fakturabeløp\nFrakt;3 %;\n');
    expect(rowAt(result, 2).item?.price).toEqual({ type: 'rate', fraction: '0.05', basis: 'fakturabeløp' });
    expect(rowAt(result, 3).reason).toBe('a rate needs a basis');
  });

  it('ignores a zero discount next to a price and rejects any other mix of price and rate', async () => {
    const result = await readCsvText(
      'Artikel;Preis;Rabatt;Grundlage\nSchraube;1,20;0;\nMutter;2,00;10;Listenpreis\nSkive;5 %;3;Rechnung\n',
      { defaultCurrency: 'EUR' },
    );
    expect(outcomes(result)).toEqual([
      '2 accepted',
      "3 rejected: has both a price ('2,00') and a rate ('10'); a price item is either an amount or a rate",
      "4 rejected: has both a price ('5 %') and a rate ('3'); a price item is either an amount or a rate",
    ]);
    expect(rowAt(result, 2).item?.price).toEqual({ type: 'amount', amount: '1.2' });
  });

  it('rejects negative and money-valued rates', async () => {
    const result = await readCsvText('Description;Discount;Basis\nA;-5;subtotal\nB;5 EUR;subtotal\n');
    expect(result.rows.map((row) => row.reason)).toEqual([
      "rate '-5' is negative",
      "rate '5 EUR' is an amount, not a percent",
    ]);
  });
});
