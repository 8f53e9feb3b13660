import { describe, expect, it } from 'vitest';
import {
  COLUMN_ALIASES,
  findHeaderRow,
  mapColumns,
  matchHeaderCell,
} from '../../../../src/agreements/price-lists/columns.js';

const fieldOf = (header: string) => matchHeaderCell(header)?.field ?? null;

describe('matchHeaderCell', () => {
  it('maps every alias in the table to its own field (notUsed ones to nothing)', () => {
    const wrong: string[] = [];
    for (const [field, aliases] of Object.entries(COLUMN_ALIASES)) {
      for (const name of aliases.names) {
        const expected = field === 'notUsed' ? null : field;
        if (fieldOf(name) !== expected) wrong.push(`${name} -> ${fieldOf(name)} (expected ${expected})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    // English
    ['Description', 'description'],
    ['Article number', 'sellerItemId'],
    ['SKU', 'sellerItemId'],
    ['UoM', 'unit'],
    ['Unit price', 'price'],
    ['Currency', 'currency'],
    ['Valid until', 'validUntil'],
    ['Fee %', 'rate'],
    ['Applies to', 'basis'],
    // Norwegian / Danish
    ['Varenavn', 'description'],
    ['Art.nr', 'sellerItemId'],
    ['Varenr.', 'sellerItemId'],
    ['Enhet', 'unit'],
    ['Enhed', 'unit'],
    ['Nettopris', 'price'],
    ['Stykpris', 'price'],
    ['Gyldig til og med', 'validUntil'],
    ['Rabatt', 'rate'],
    ['Grunnlag', 'basis'],
    // Swedish
    ['Benämning', 'description'],
    ['Artikelnummer', 'sellerItemId'],
    ['Gäller till', 'validUntil'],
    ['Underlag', 'basis'],
    // Finnish
    ['Tuote', 'description'],
    ['Tuotekoodi', 'sellerItemId'],
    ['Yksikkö', 'unit'],
    ['Yksikköhinta', 'price'],
    ['Valuutta', 'currency'],
    ['Voimassa', 'validUntil'],
    ['Alennus', 'rate'],
    ['Peruste', 'basis'],
    // German
    ['Artikelbezeichnung', 'description'],
    ['Artikel-Nr.', 'sellerItemId'],
    ['Einheit', 'unit'],
    ['Einzelpreis', 'price'],
    ['Währung', 'currency'],
    ['Gültig bis', 'validUntil'],
    ['Gültig ab', 'validFrom'],
    ['Voimassa alkaen', 'validFrom'],
    ['Gäller från', 'validFrom'],
    ['Gyldig fra', 'validFrom'],
    ['Valid from', 'validFrom'],
    ['Geldig vanaf', 'validFrom'],
  ])('recognises %s as %s', (header, field) => {
    expect(fieldOf(header)).toBe(field);
  });

  it('ignores case, punctuation and diacritics', () => {
    expect(fieldOf('  YKSIKKOHINTA: ')).toBe('price');
    expect(fieldOf('gultig-bis')).toBe('validUntil');
    expect(fieldOf('ART. NR.')).toBe('sellerItemId');
    expect(fieldOf('Item #')).toBe('sellerItemId');
  });

  it('reads longer headers by their head word', () => {
    expect(fieldOf('Item price')).toBe('price');
    expect(fieldOf('Price currency')).toBe('currency');
    expect(fieldOf('Pris per enhet')).toBe('price');
    expect(fieldOf('Price excl. VAT (NOK)')).toBe('price');
    expect(fieldOf('Discount applies to')).toBe('basis');
    expect(fieldOf('Valid until (dd.mm.yyyy)')).toBe('validUntil');
  });

  it('reads Nordic and German compound words by their ending', () => {
    expect(matchHeaderCell('Listenpreis')).toEqual({ field: 'price', strength: 1 });
    expect(fieldOf('Salgsenhet')).toBe('unit');
    expect(fieldOf('Kunderabatt')).toBe('rate');
    expect(fieldOf('Produktbeskrivelse')).toBe('description');
  });

  it('leaves VAT, product-group and unknown columns out', () => {
    expect(fieldOf('VAT %')).toBeNull();
    expect(fieldOf('MVA-sats')).toBeNull();
    expect(fieldOf('Pris inkl. mva')).toBeNull();
    expect(fieldOf('Rabattgruppe')).toBeNull();
    expect(fieldOf('Product group')).toBeNull();
    expect(fieldOf('Quantity')).toBeNull();
    expect(fieldOf('')).toBeNull();
  });

  it('does not read a long title sentence as a header', () => {
    expect(fieldOf('Price list 2026 for Supplier X, valid until further notice')).toBeNull();
  });
});

describe('mapColumns', () => {
  it('prefers the exact match when two columns name the same field', () => {
    expect(mapColumns(['List price', 'Varenavn', 'Net price']).indexes).toEqual({ price: 2, description: 1 });
    expect(mapColumns(['Pris', 'Nettopris']).indexes).toEqual({ price: 0 });
  });
});

describe('findHeaderRow', () => {
  it('finds the header below title rows', () => {
    const rows = [
      ['Price list 2026'],
      ['Supplier X AS'],
      ['Valid from 2026-01-01'],
      [],
      ['Art.nr', 'Description', 'Unit', 'Price'],
      ['100', 'Bolt', 'pcs', '1,50'],
    ];
    const found = findHeaderRow(rows);
    expect(found?.position).toBe(4);
    expect(found?.mapping.indexes).toEqual({ sellerItemId: 0, description: 1, unit: 2, price: 3 });
  });

  it('needs a price or rate column and one more known column', () => {
    expect(findHeaderRow([['Description', 'Unit', 'Valid until']])).toBeNull();
    expect(findHeaderRow([['Price']])).toBeNull();
    expect(findHeaderRow([['Discount', 'Basis']])?.mapping.indexes).toEqual({ rate: 0, basis: 1 });
  });

  it('takes the row naming the most fields, the first of equals', () => {
    const rows = [
      ['Price', 'Item'],
      ['Item', 'Price', 'Unit'],
      ['Item', 'Price', 'Unit'],
    ];
    expect(findHeaderRow(rows)?.position).toBe(1);
  });
});
