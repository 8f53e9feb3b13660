import { describe, expect, it } from 'vitest';
import { isSuppressed, parseDirectives } from '../../../../src/agreements/context-suggestions/directives.js';
import {
  instructionPresent,
  proposeEdit,
  subjectOf,
  type DismissedAlert,
} from '../../../../src/agreements/context-suggestions/proposal.js';

const lineAlert: DismissedAlert = {
  checker: 'price_mismatch',
  fingerprint: 'price_mismatch:0f0f',
  title: 'Unit price above the agreed price',
  currencyCode: 'EUR',
  line: { sellerItemId: '1001', description: 'Copy paper A4', unitPrice: '12.500000' },
};

describe('proposeEdit', () => {
  it('suggests not flagging the checker on that item at that price, with the note as the reason', () => {
    const proposal = proposeEdit(lineAlert, { category: 'not_an_issue', note: 'Price raise agreed\nby phone' });
    expect(proposal.instruction).toBe(
      'Do not flag: price_mismatch for item "1001" at unit price 12.50 EUR. Reason: Price raise agreed by phone',
    );
    expect(proposal.reason).toBe(
      'Alert "Unit price above the agreed price" was dismissed as not_an_issue: Price raise agreed by phone',
    );
    expect(proposal.editKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it('names the item by its description when the line has no seller item id, and leaves out a missing price', () => {
    const proposal = proposeEdit(
      { ...lineAlert, line: { sellerItemId: null, description: 'Copy paper A4', unitPrice: null } },
      { category: null, note: null },
    );
    expect(proposal.instruction).toBe('Do not flag: price_mismatch for item "Copy paper A4"');
    expect(proposal.reason).toBe('Alert "Unit price above the agreed price" was dismissed.');
  });

  it('uses the category as the reason when there is no note', () => {
    expect(proposeEdit(lineAlert, { category: 'wrong_price_list', note: null }).instruction).toMatch(
      /\. Reason: dismissed as wrong_price_list$/,
    );
  });

  it('names the one problem by its fingerprint for a whole-invoice alert', () => {
    const proposal = proposeEdit(
      { ...lineAlert, checker: 'totals_mismatch', fingerprint: 'totals_mismatch:abcd', line: null },
      { category: null, note: 'rounding' },
    );
    expect(proposal.instruction).toBe('Do not flag: totals_mismatch (ref totals_mismatch:abcd). Reason: rounding');
  });

  it('gives the same edit key for the same edit whatever the reason, so a rejected edit stays rejected', () => {
    const a = proposeEdit(lineAlert, { category: 'x', note: 'first' });
    const b = proposeEdit(
      { ...lineAlert, fingerprint: 'price_mismatch:other-invoice', title: 'Another title' },
      { category: null, note: 'second' },
    );
    expect(a.editKey).toBe(b.editKey);
    expect(
      proposeEdit({ ...lineAlert, line: { ...lineAlert.line!, unitPrice: '13' } }, { category: null, note: null })
        .editKey,
    ).not.toBe(a.editKey);
  });

  it('suggests a note naming the title for an alert a user recorded (nothing the checks read)', () => {
    const proposal = proposeEdit(
      { checker: null, fingerprint: null, title: 'Freight "charged" twice', currencyCode: 'EUR', line: null },
      { category: null, note: 'it was two deliveries' },
    );
    expect(proposal.instruction).toBe(`Not an issue: "Freight 'charged' twice". Reason: it was two deliveries`);
    expect(parseDirectives(proposal.instruction)).toEqual([]);
    const again = proposeEdit(
      { checker: null, fingerprint: null, title: 'freight charged twice!', currencyCode: 'SEK', line: null },
      { category: 'dup', note: null },
    );
    expect(again.editKey).toBe(proposal.editKey);
  });

  it('keeps its promise: once the line is in the instructions, the same finding is suppressed', () => {
    const proposal = proposeEdit(lineAlert, { category: null, note: 'agreed' });
    const instructions = `Net prices.\n${proposal.instruction}`;
    // The same problem found again on a later invoice: another fingerprint, same item and price.
    const found = { ...subjectOf(lineAlert)!, fingerprint: 'price_mismatch:later-invoice', unitPrice: '12.5' };
    expect(isSuppressed(found, parseDirectives(instructions))).toBe(true);
    expect(isSuppressed({ ...found, unitPrice: '14.00' }, parseDirectives(instructions))).toBe(false);
    const whole = { ...lineAlert, checker: 'totals_mismatch', fingerprint: 'totals_mismatch:abcd', line: null };
    expect(
      isSuppressed(subjectOf(whole)!, parseDirectives(proposeEdit(whole, { category: null, note: null }).instruction)),
    ).toBe(true);
  });
});

describe('instructionPresent', () => {
  it('finds the same directive whatever its reason and spelling', () => {
    const line = proposeEdit(lineAlert, { category: null, note: 'new reason' }).instruction;
    expect(
      instructionPresent(
        'Intro\ndo not flag: price_mismatch for item "1001" at unit price 12.5 EUR. Reason: old',
        line,
      ),
    ).toBe(true);
    expect(instructionPresent('Intro\nDo not flag: price_mismatch for item "1002" at unit price 12.50 EUR', line)).toBe(
      false,
    );
    expect(instructionPresent(null, line)).toBe(false);
  });

  it('finds a note by its line', () => {
    expect(instructionPresent('a\n  Not an issue: "X"  \nb', 'Not an issue: "X"')).toBe(true);
    expect(instructionPresent('Not an issue: "Y"', 'Not an issue: "X"')).toBe(false);
  });
});
