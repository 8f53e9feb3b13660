import { describe, expect, it } from 'vitest';
import {
  feeChecker,
  feeNotAgreedChecker,
  notInPriceListChecker,
  rateBasis,
  rateTermKind,
  runCheckers,
} from '../../../../src/checks/checkers/index.js';
import { chargeConcepts, namesCharge } from '../../../../src/checks/checkers/vocabulary.js';
import { input, line, priceItem, rateItem } from './fixtures.js';

const goods = line({ id: 'goods', sellerItemId: 'P-100', quantity: '10', unitPrice: '10.00', netAmount: '100.00' });
const charge = (reason: string | null, amount: string, reasonCode: string | null = null) => ({
  isCharge: true,
  amount,
  baseAmount: null,
  reason,
  reasonCode,
});
const feeLine = (description: string, amount: string) =>
  line({
    id: 'fee',
    position: 1,
    lineNumber: '2',
    sellerItemId: null,
    description,
    unitCode: 'C62',
    quantity: '1',
    unitPrice: amount,
    netAmount: amount,
  });

describe('charge vocabulary in eight languages', () => {
  it('reads freight in every language, as words alone or in compounds', () => {
    for (const text of [
      'Freight',
      'Shipping & handling',
      'Frakt',
      'Fraktkostnad',
      'Fragt',
      'Fragttillæg',
      'Rahti',
      'Toimitusmaksu',
      'Fracht',
      'Versandkosten',
      'Frais de port',
      'Vrachtkosten',
      'Verzendkosten',
    ]) {
      expect(chargeConcepts(text).has('freight'), text).toBe(true);
    }
    expect(chargeConcepts(null, 'FC').has('freight')).toBe(true);
  });

  it('tells a small-order surcharge from an order handling fee', () => {
    expect([...chargeConcepts('Småordretillegg')]).toEqual(['small_order']);
    expect([...chargeConcepts('Order fee')]).toEqual(['handling']);
    expect([...chargeConcepts('Ekspedisjonsgebyr')]).toEqual(['handling']);
  });

  it('reads invoice fees only with a fee word beside the invoice', () => {
    for (const text of [
      'Invoice fee',
      'Fakturagebyr',
      'Fakturaavgift',
      'Faktureringsavgift',
      'Laskutuslisä',
      'Laskutusmaksu',
      'Rechnungsgebühr',
      'Frais de facturation',
      'Factuurkosten',
    ]) {
      expect(chargeConcepts(text).has('invoice_fee'), text).toBe(true);
    }
    expect(chargeConcepts('Invoice 1001').size).toBe(0);
    expect(chargeConcepts('Faktura for mars').size).toBe(0);
  });

  it('names charges but not goods', () => {
    for (const text of [
      'Service fee',
      'Miljøavgift',
      'Småordretillegg',
      'Mindermengenzuschlag',
      'Handling',
      'Emballage toeslag',
      'Brændstoftillæg',
      'Polttoainelisä',
    ])
      expect(namesCharge(text), text).toBe(true);
    for (const text of [
      'Copy paper A4',
      'Kopipapir A4 80g',
      'Toner HP 305A',
      'Consulting hours',
      'Portable speaker',
      'Bürostuhl',
    ])
      expect(namesCharge(text), text).toBe(false);
  });

  it('reads rate terms and bases in the supplier language', () => {
    expect(rateTermKind({ description: 'Fragttillæg', basis: null })).toBe('fee');
    expect(rateTermKind({ description: 'Remise commerciale', basis: 'total HT' })).toBe('discount');
    expect(rateTermKind({ description: 'Korting', basis: 'factuurbedrag' })).toBe('discount');
    expect(rateTermKind({ description: 'Escompte paiement anticipé', basis: null })).toBe('not_per_invoice');
    expect(rateBasis('af fakturabeløb')).toEqual({ basis: 'invoice_subtotal', confidence: 'medium' });
    expect(rateBasis('Auftragswert netto')).toEqual({ basis: 'invoice_subtotal', confidence: 'medium' });
    expect(rateBasis('par ligne')).toEqual({ basis: 'line_total', confidence: 'medium' });
    expect(rateBasis('annual purchases')).toBeNull();
  });
});

describe('agreed fees in the supplier language', () => {
  const freight = rateItem({ id: 'freight', description: 'Fragttillæg', fraction: '0.02', basis: 'af fakturabeløb' });

  it('finds a document charge above the agreed rate when the names differ in language', () => {
    const [finding, ...rest] = feeChecker.run(
      input({
        invoice: { lines: [goods], allowanceCharges: [charge('Frakt', '3.50')] },
        agreement: { priceItems: [priceItem(), freight] },
      }),
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ checker: 'fee_above_agreed', impactAmount: '1.50', confidence: 'medium' });
    expect(finding!.explanation).toContain('"Frakt" is read as freight, like the agreed "Fragttillæg"');
  });

  it('finds a freight line above the agreed rate, and leaves one within it', () => {
    const run = (amount: string) =>
      feeChecker.run(
        input({
          invoice: { lines: [goods, feeLine('Freight', amount)] },
          agreement: { priceItems: [priceItem(), freight] },
        }),
      );
    expect(run('3.50')[0]).toMatchObject({ impactAmount: '1.50', invoiceItemId: 'fee', correctionType: 'modify_item' });
    expect(run('2.00')).toEqual([]);
  });

  it('takes a fee term without a basis of the invoice subtotal, and says it is a guess', () => {
    const [finding] = feeChecker.run(
      input({
        invoice: { lines: [goods], allowanceCharges: [charge(null, '5.00', 'FC')] },
        agreement: {
          priceItems: [priceItem(), rateItem({ id: 'f', description: 'Fracht', fraction: '0.02', basis: null })],
        },
      }),
    );
    expect(finding).toMatchObject({ impactAmount: '3.00', confidence: 'medium' });
    expect(finding!.explanation).toContain('it is taken of the invoice subtotal (a guess)');
  });

  it('compares a fee agreed as an amount under another name', () => {
    const agreed = priceItem({
      id: 'invfee',
      sellerItemId: null,
      description: 'Fakturagebyr',
      unit: null,
      amount: '29.00',
    });
    const [finding] = feeChecker.run(
      input({
        invoice: { lines: [goods, feeLine('Invoice fee', '49.00')] },
        agreement: { priceItems: [priceItem(), agreed] },
      }),
    );
    expect(finding).toMatchObject({ checker: 'fee_above_agreed', impactAmount: '20.00', invoiceItemId: 'fee' });
  });
});

describe('charges the agreement does not allow', () => {
  it('claims the whole fee line, not 0.00, and does not report it as an unlisted item', () => {
    const checked = input({ invoice: { lines: [goods, feeLine('Fakturagebyr', '49.00')] } });
    const [finding] = feeNotAgreedChecker.run(checked);
    expect(finding).toMatchObject({
      checker: 'fee_not_agreed',
      impactAmount: '49.00',
      confidence: 'high',
      invoiceItemId: 'fee',
      correctionType: 'modify_item',
    });
    expect(finding!.explanation).toContain('The whole charge is claimed');
    expect(notInPriceListChecker.run(checked)).toEqual([]);
  });

  it('claims a document charge the agreement does not allow', () => {
    const [finding] = feeNotAgreedChecker.run(
      input({ invoice: { lines: [goods], allowanceCharges: [charge('Frakt', '149.00')] } }),
    );
    expect(finding).toMatchObject({
      impactAmount: '149.00',
      invoiceItemId: null,
      correctionType: 'modify_invoice',
      title: 'Charge not in the agreement: Frakt',
    });
    const twice = runCheckers(
      input({ invoice: { lines: [goods], allowanceCharges: [charge('Frakt', '149.00'), charge('Frakt', '99.00')] } }),
    );
    expect(twice.filter((entry) => entry.checker === 'fee_not_agreed').map((entry) => entry.impactAmount)).toEqual([
      '149.00',
      '99.00',
    ]);
  });

  it('leaves charges the agreement allows to the fee check, and agreements without prices alone', () => {
    const freight = rateItem({ id: 'freight', description: 'Freight', fraction: '0.02', basis: 'invoice_subtotal' });
    expect(
      feeNotAgreedChecker.run(
        input({
          invoice: { lines: [goods], allowanceCharges: [charge('Fragt', '2.00')] },
          agreement: { priceItems: [priceItem(), freight] },
        }),
      ),
    ).toEqual([]);
    expect(
      feeNotAgreedChecker.run(
        input({
          invoice: { lines: [goods], allowanceCharges: [charge('Frakt', '149.00')] },
          agreement: { priceItems: [] },
        }),
      ),
    ).toEqual([]);
    expect(
      feeNotAgreedChecker.run(
        input({
          invoice: { lines: [goods], allowanceCharges: [charge('Frakt', '149.00')], documentType: 'credit_note' },
        }),
      ),
    ).toEqual([]);
  });

  it('does not take goods with a fee-like word for a charge', () => {
    const boxes = line({
      id: 'boxes',
      position: 1,
      lineNumber: '2',
      sellerItemId: 'B-1',
      description: 'Shipping boxes',
      quantity: '50',
      unitPrice: '3.00',
      netAmount: '150.00',
    });
    expect(feeNotAgreedChecker.run(input({ invoice: { lines: [goods, boxes] } }))).toEqual([]);
  });

  it('keeps the fee out of the goods a discount is taken of', () => {
    const findings = runCheckers(
      input({
        invoice: {
          lines: [goods, feeLine('Invoice fee', '49.00')],
          allowanceCharges: [{ isCharge: false, amount: '5.00', baseAmount: null, reason: 'Rabatt', reasonCode: null }],
        },
        agreement: {
          priceItems: [
            priceItem(),
            rateItem({ id: 'd', description: 'Rabatt', fraction: '0.05', basis: 'invoice_subtotal' }),
          ],
        },
      }),
    );
    expect(findings.map((finding) => finding.checker)).not.toContain('agreed_discount_missing');
  });
});

describe('certainty', () => {
  it('is never certain on figures read from a PDF, and says so', () => {
    const overpriced = line({ quantity: '4', unitPrice: '12.50', netAmount: '50.00' });
    const [structured] = runCheckers(input({ invoice: { lines: [overpriced] } }));
    const [fromPdf] = runCheckers(input({ invoice: { lines: [overpriced], readFrom: 'pdf_text' } }));
    expect(structured).toMatchObject({ checker: 'unit_price_above_agreed', confidence: 'certain' });
    expect(fromPdf).toMatchObject({
      checker: 'unit_price_above_agreed',
      confidence: 'high',
      impactAmount: structured!.impactAmount,
    });
    expect(fromPdf!.explanation).toContain('read from the text of its PDF');
  });
});
