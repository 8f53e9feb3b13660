import { describe, expect, it } from 'vitest';
import { matchInvoice, partyKeys, type PartyFacts } from '../../../src/matching/rules.js';

// The refresh only tries agreements whose supplier shares a key with the invoice's, so sharing a
// key must be exactly what lets the supplier rule match.
const party = (
  id: string | null,
  name: string | null,
  orgNumber: string | null = null,
  vatId: string | null = null,
): PartyFacts => ({ id, name, orgNumber, vatId });
const parties = [
  party('s1', 'Acme Office AS', '987 654 321', 'NO987654321MVA'),
  party(null, 'ACME OFFICE'),
  party(null, 'Ácme Office Ltd.'),
  party(null, null, '987654321'),
  party(null, 'Other', null, 'no987654321mva'),
  party('s2', 'Nordic Paper AB', '555666777'),
  party(null, 'Nordic Paper', '111'),
  party('s1', null),
  party(null, ''),
  party(null, 'AS'),
];

function supplierMatches(invoiceSupplier: PartyFacts, agreementSupplier: PartyFacts, smartMatching: boolean): boolean {
  const none = party(null, null);
  const invoice = {
    supplier: invoiceSupplier,
    recipient: none,
    issueDate: '2026-01-01',
    currencyCode: null,
    buyerReference: null,
    orderReference: null,
    contractReference: null,
    deliveryCountryCode: null,
  };
  const agreement = {
    status: 'active' as const,
    suppliers: [agreementSupplier],
    recipients: [],
    effectiveDate: null,
    expirationDate: null,
    applicability: null,
  };
  return matchInvoice(invoice, agreement, { smartMatching }).matched;
}

describe('partyKeys', () => {
  for (const smart of [false, true]) {
    it(`shares a key exactly when the supplier rule matches (smart matching ${smart ? 'on' : 'off'})`, () => {
      for (const a of parties) {
        for (const b of parties) {
          const shared = partyKeys(a, smart).some((key) => partyKeys(b, smart).includes(key));
          expect({ a, b, shared }).toEqual({ a, b, shared: supplierMatches(a, b, smart) });
        }
      }
    });
  }

  it('gives the linked record only when smart matching is off', () => {
    expect(partyKeys(parties[0]!, false)).toEqual(['id:s1']);
    expect(partyKeys(parties[0]!, true)).toEqual(['id:s1', 'org:987654321', 'vat:NO987654321MVA', 'name:acme office']);
  });
});
