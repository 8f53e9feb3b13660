import { describe, expect, it } from 'vitest';
import { readAmount } from '../../../src/web/format.js';
import { alertSummary, codeLabel } from '../../../src/web/labels.js';
import { pager, pageSizeOf, sortHeader, sortState, type SortOption } from '../../../src/web/query.js';
import { textsFor } from '../../../src/web/texts/index.js';

// The pure parts of issue 30's fixes: amounts as people type them, codes in words, sorting both
// ways and paging back.

describe('readAmount', () => {
  it('reads the decimal comma, the decimal point and grouped thousands', () => {
    expect(readAmount('12,50')).toEqual({ ok: true, value: '12.50' });
    expect(readAmount('12.50')).toEqual({ ok: true, value: '12.50' });
    expect(readAmount(' 1 234,50 ')).toEqual({ ok: true, value: '1234.50' });
    expect(readAmount('1\u00a0234,5')).toEqual({ ok: true, value: '1234.5' });
    expect(readAmount('1.234,50')).toEqual({ ok: true, value: '1234.50' });
    expect(readAmount('1,234.50')).toEqual({ ok: true, value: '1234.50' });
    expect(readAmount("1'234.50")).toEqual({ ok: true, value: '1234.50' });
    expect(readAmount('1.234.567')).toEqual({ ok: true, value: '1234567' });
    expect(readAmount('0,125')).toEqual({ ok: true, value: '0.125' });
    expect(readAmount('200')).toEqual({ ok: true, value: '200' });
  });

  it('refuses what is no amount, and what reads two ways', () => {
    for (const text of ['', 'twelve', '12,', '-5', '1,2,3', '1.234,5,6', '12,50.00.1', '1e3'])
      expect(readAmount(text).ok, text).toBe(false);
    const ambiguous = readAmount('1,234');
    expect(ambiguous.ok).toBe(false);
    expect(!ambiguous.ok && ambiguous.message).toContain('ambiguous');
    expect(readAmount('1.234').ok).toBe(false);
  });
});

describe('codes in words', () => {
  const english = textsFor('en').codes;
  it('labels every code a finance user meets, and reads an unknown one as words', () => {
    expect(codeLabel('duplicate_charge', english)).toBe('Charged twice');
    expect(codeLabel('all_items_failed', english)).toBe('Every item failed');
    expect(codeLabel('extraction_incomplete', english)).toBe('Prices partly read');
    expect(codeLabel('no_text_layer', english)).toBe('PDF without text');
    expect(codeLabel('some_new_code', english)).toBe('Some new code');
    expect(codeLabel(null, english)).toBe('—');
  });

  it('says what an alert found in the words of its checker', () => {
    expect(alertSummary({ impact_amount: '10.00', provenance: { checker: 'duplicate_charge' } }, english)).toBe(
      'charged twice',
    );
    expect(alertSummary({ impact_amount: '10.00', provenance: { checker: 'line_arithmetic' } }, english)).toBe(
      'line does not add up',
    );
    expect(alertSummary({ impact_amount: '10.00', provenance: { checker: 'unit_price_above_agreed' } }, english)).toBe(
      'charged more than agreed',
    );
    expect(alertSummary({ impact_amount: '-1.00', provenance: { checker: null } }, english)).toBe(
      'charged less than agreed',
    );
  });

  it("uses the request's language, and the code's own words where that language has none", () => {
    const norwegian = textsFor('nb').codes;
    expect(codeLabel('duplicate_charge', norwegian)).toBe('Fakturert to ganger');
    expect(codeLabel('in_progress', norwegian)).toBe('Under arbeid');
    expect(codeLabel('some_new_code', norwegian)).toBe('Some new code');
    expect(alertSummary({ impact_amount: '10.00', provenance: { checker: 'duplicate_charge' } }, norwegian)).toBe(
      'fakturert to ganger',
    );
    expect(alertSummary({ impact_amount: '-1.00' }, norwegian)).toBe('fakturert mindre enn avtalt');
    expect(codeLabel('in_progress', textsFor('en').codes)).toBe(codeLabel('in_progress', english));
  });
});

describe('sorting and paging', () => {
  const sorts: SortOption[] = [
    { value: 'created_at', label: 'Added', first: 'desc' },
    { value: 'invoice_number', label: 'Number', first: 'asc' },
  ];

  it('toggles the sorted column and starts another with its own direction', () => {
    const state = sortState({ sort: 'invoice_number' }, sorts, { sort: 'created_at', direction: 'desc' });
    expect(state).toEqual({ sort: 'invoice_number', direction: 'asc' });
    const sorted = sortHeader(
      '/app/invoices',
      { search: 'x', cursor: 'c', sort: 'invoice_number', direction: 'asc' },
      state,
      sorts[1]!,
    );
    expect(sorted).toMatchObject({
      ariaSort: 'ascending',
      href: '/app/invoices?search=x&sort=invoice_number&direction=desc',
    });
    const other = sortHeader('/app/invoices', { search: 'x' }, state, sorts[0]!);
    expect(other).toMatchObject({ ariaSort: null, href: '/app/invoices?search=x&sort=created_at&direction=desc' });
    expect(sortState({ sort: 'dropped_table' }, sorts, { sort: 'created_at', direction: 'desc' })).toEqual({
      sort: 'created_at',
      direction: 'desc',
    });
  });

  it('goes forward, back and to the first page through the trail of cursors', () => {
    const first = pager('/app/x', { sort: 'a' }, {}, 2, 2, 'c2');
    expect(first).toMatchObject({ firstUrl: null, previousUrl: null, fromRow: 1, toRow: 2 });
    expect(first.nextUrl).toBe('/app/x?sort=a&cursor=c2&trail=-&page=2');
    const second = pager('/app/x', { sort: 'a' }, { cursor: 'c2', trail: '-', page: '2' }, 2, 2, 'c3');
    expect(second).toMatchObject({ firstUrl: '/app/x?sort=a', previousUrl: '/app/x?sort=a', fromRow: 3, toRow: 4 });
    expect(second.nextUrl).toBe('/app/x?sort=a&cursor=c3&trail=-%2Cc2&page=3');
    const third = pager('/app/x', { sort: 'a' }, { cursor: 'c3', trail: '-,c2', page: '3' }, 1, 2, null);
    expect(third).toMatchObject({
      nextUrl: null,
      previousUrl: '/app/x?sort=a&cursor=c2&trail=-&page=2',
      fromRow: 5,
      toRow: 5,
    });
    expect(pageSizeOf({ limit: '2' })).toBe(2);
    expect(pageSizeOf({ limit: '5000' })).toBe(50);
  });
});
