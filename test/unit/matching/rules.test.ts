import { describe, expect, it } from 'vitest';
import { comparableName, matchInvoice, type AgreementFacts, type InvoiceFacts } from '../../../src/matching/rules.js';

const acme = { id: 's1', name: 'Acme Office AS', orgNumber: '987654321', vatId: 'NO987654321MVA' };
const invoice = (overrides: Partial<InvoiceFacts> = {}): InvoiceFacts => ({
  supplier: { id: 's1', name: 'Acme Office AS', orgNumber: null, vatId: null },
  recipient: { id: null, name: null, orgNumber: null, vatId: null },
  issueDate: '2026-03-01',
  currencyCode: 'NOK',
  buyerReference: 'DEPT-7',
  orderReference: 'PO-2026-11',
  contractReference: null,
  deliveryCountryCode: 'NO',
  ...overrides,
});
const agreement = (overrides: Partial<AgreementFacts> = {}): AgreementFacts => ({
  status: 'active',
  suppliers: [acme],
  recipients: [],
  effectiveDate: '2026-01-01',
  expirationDate: '2026-12-31',
  applicability: null,
  ...overrides,
});
const off = { smartMatching: false };
const smart = { smartMatching: true };

describe('matching rules', () => {
  it('matches the linked supplier within the dates, saying why', () => {
    expect(matchInvoice(invoice(), agreement(), off)).toEqual({
      matched: true,
      reasons: ['supplier is Acme Office AS', 'issued within the agreement period'],
    });
  });

  it('needs a supplier on the agreement, and the invoice inside its period', () => {
    expect(matchInvoice(invoice(), agreement({ suppliers: [] }), off)).toMatchObject({
      matched: false,
      reason: 'the agreement names no supplier',
    });
    expect(matchInvoice(invoice({ issueDate: '2025-12-31' }), agreement(), off)).toMatchObject({ matched: false });
    expect(matchInvoice(invoice({ issueDate: '2027-01-01' }), agreement(), off)).toMatchObject({ matched: false });
    expect(matchInvoice(invoice(), agreement({ effectiveDate: null, expirationDate: null }), off).matched).toBe(true);
    expect(matchInvoice(invoice(), agreement({ status: 'archived' }), off).matched).toBe(false);
  });

  it('limits to named recipients; none named means any', () => {
    const withRecipient = agreement({ recipients: [{ id: 'r1', name: 'Buyer', orgNumber: null, vatId: null }] });
    expect(matchInvoice(invoice(), withRecipient, off).matched).toBe(false);
    expect(
      matchInvoice(
        invoice({ recipient: { id: 'r1', name: 'Buyer', orgNumber: null, vatId: null } }),
        withRecipient,
        off,
      ).matched,
    ).toBe(true);
  });

  it('applies every applicability dimension given', () => {
    const rules = {
      buyer_references: ['DEPT-7'],
      order_reference_prefixes: ['PO-2026'],
      delivery_country_codes: ['NO'],
      currency_codes: ['NOK'],
    };
    expect(matchInvoice(invoice(), agreement({ applicability: rules }), off)).toMatchObject({ matched: true });
    expect(matchInvoice(invoice({ buyerReference: 'DEPT-8' }), agreement({ applicability: rules }), off)).toMatchObject(
      { matched: false, reason: expect.stringContaining('buyer reference') },
    );
    expect(
      matchInvoice(invoice({ orderReference: 'PO-2025-1' }), agreement({ applicability: rules }), off).matched,
    ).toBe(false);
    expect(matchInvoice(invoice({ currencyCode: 'EUR' }), agreement({ applicability: rules }), off).matched).toBe(
      false,
    );
  });

  it('with smart matching, finds an unlinked supplier by org number, VAT id or name', () => {
    const unlinked = (party: Partial<InvoiceFacts['supplier']>) =>
      invoice({ supplier: { id: 'other', name: null, orgNumber: null, vatId: null, ...party } });
    expect(matchInvoice(unlinked({ orgNumber: '987 654 321' }), agreement(), off).matched).toBe(false);
    expect(matchInvoice(unlinked({ orgNumber: '987 654 321' }), agreement(), smart)).toMatchObject({
      matched: true,
      reasons: expect.arrayContaining([expect.stringContaining('org number 987654321')]),
    });
    expect(matchInvoice(unlinked({ vatId: 'no987654321mva' }), agreement(), smart)).toMatchObject({
      matched: true,
      reasons: expect.arrayContaining([expect.stringContaining('VAT id')]),
    });
    expect(matchInvoice(unlinked({ name: 'ACME OFFICE A/S' }), agreement(), smart)).toMatchObject({
      matched: true,
      reasons: expect.arrayContaining([expect.stringContaining('name')]),
    });
    expect(matchInvoice(unlinked({ name: 'Acme Furniture AS' }), agreement(), smart).matched).toBe(false);
  });

  it('compares names without case, accents or legal forms', () => {
    expect(comparableName('Lähettäjä Oy')).toBe('lahettaja');
    expect(comparableName('ACME Office GmbH & Co.')).toBe(comparableName('Acme office'));
  });
});
