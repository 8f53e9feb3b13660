import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/http/errors.js';
import { patchOf, reviewFormOf } from '../../../../src/web/pages/review-panel.js';
import { textsFor } from '../../../../src/web/texts/index.js';

// The review form's pure parts: what it sends as the PATCH, and what it shows (in English).

const t = textsFor('en').review;

const box = (x: number, y: number) => ({ x, y, width: 0.1, height: 0.01 });
const invoice = {
  invoice_number: null,
  issue_date: '2025-03-14',
  due_date: null,
  order_reference: 'PO-1',
  buyer_reference: null,
  contract_reference: null,
  supplier: {
    id: null,
    name: null,
    invoiced_as: { name: 'Acme AS', org_number: '987654321', vat_id: null, country_code: null },
  },
  recipient: { id: null, name: null, invoiced_as: { name: null, org_number: null, vat_id: null, country_code: null } },
  amounts: { currency_code: 'NOK', excluding_vat: '3096.00', vat: '774.00', including_vat: '3870.00', payable: null },
  line_items: [
    {
      id: 'l1',
      description: 'Mounting work',
      quantity: '3',
      unit_price: '850.00',
      net_amount: '2550.00',
      unit_code: 'h',
      allowance_charges: [],
      source: { page: 1, box: box(0.1, 0.3), text: 'Mounting work 3 850,00 2 550,00' },
    },
    {
      id: 'l2',
      description: 'Brackets',
      quantity: '12',
      unit_price: '45.50',
      net_amount: '546.00',
      unit_code: null,
      allowance_charges: [],
      source: null,
    },
  ],
  extraction: {
    method: 'pdf_text',
    needs_review: true,
    review_reasons: ['No invoice number could be read.'],
    confidence: { overall: 0.5, lines: 1, fields: { issueDate: 0.9, 'totals.taxInclusive': 0.97 } },
    layout_memory: null,
    sources: {
      issueDate: { page: 1, box: box(0.7, 0.1), text: '14.03.2025' },
      'totals.taxInclusive': { page: 2, box: box(0.8, 0.5), text: '3 870,00' },
    },
  },
} as never;

const asRead = {
  invoice_number: '',
  issue_date: '2025-03-14',
  due_date: '',
  order_reference: 'PO-1',
  buyer_reference: '',
  contract_reference: '',
  excluding_vat: '3096.00',
  vat: '774.00',
  including_vat: '3870.00',
  payable: '',
  line_description: ['Mounting work', 'Brackets'],
  line_quantity: ['3', '12'],
  line_unit_price: ['850.00', '45.50'],
  line_net_amount: ['2550.00', '546.00'],
};

describe('review form', () => {
  it('sends every header value (empty is null) and no lines when none changed', () => {
    expect(patchOf(invoice, { ...asRead, invoice_number: ' LK-1 ' }, t)).toEqual({
      invoice_number: 'LK-1',
      issue_date: '2025-03-14',
      due_date: null,
      order_reference: 'PO-1',
      buyer_reference: null,
      contract_reference: null,
      amounts: { excluding_vat: '3096.00', vat: '774.00', including_vat: '3870.00', payable: null },
    });
    // "2550" is the same amount as "2550.00": not a change.
    expect(patchOf(invoice, { ...asRead, line_net_amount: ['2550', '546.00'] }, t)).not.toHaveProperty('line_items');
  });

  it('reads amounts as people type them and sends the lines as read with the changed cells', () => {
    const patch = patchOf(invoice, { ...asRead, including_vat: '3 870,00', line_quantity: ['3', '13'] }, t) as {
      amounts: Record<string, string | null>;
      line_items: Array<Record<string, unknown>>;
    };
    expect(patch.amounts.including_vat).toBe('3870.00');
    expect(patch.line_items).toHaveLength(2);
    expect(patch.line_items[1]).toMatchObject({ id: 'l2', quantity: '13', unit_price: '45.50', net_amount: '546.00' });
    expect(patch.line_items[0]).toMatchObject({ unit_code: 'h', quantity: '3' });
  });

  it('refuses an amount it cannot read, at its field, before calling the API', () => {
    let refused: unknown;
    try {
      patchOf(invoice, { ...asRead, vat: '12,3,4', line_unit_price: ['850.00', 'abc'] }, t);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    const details = (refused as ApiError).extra.details as Array<{ field: string }>;
    expect(details.map((d) => d.field)).toEqual(['amounts.vat', 'line_items.1.unit_price']);
  });

  it("numbers each value's box, the page's boxes only, with its confidence", () => {
    const form = reviewFormOf(invoice, null, 1, t);
    const issue = form.fields.find((field) => field.name === 'issue_date')!;
    expect(issue).toMatchObject({ value: '2025-03-14', confidence: 0.9, box: 1 });
    expect(form.fields.find((field) => field.name === 'invoice_number')).toMatchObject({ confidence: null, box: null });
    // The total's box is on page 2; line 1's row on page 1.
    expect(form.boxes.map((b) => b.label)).toEqual(['Issue date', 'Line 1']);
    expect(form.pagesWithValues).toEqual([1, 2]);
    expect(form.hasConfidence).toBe(true);
    // Refused values are shown as sent.
    const sent = reviewFormOf(invoice, { ...asRead, vat: '12,3,4' }, 1, t);
    expect(sent.fields.find((field) => field.name === 'vat')!.value).toBe('12,3,4');
  });
});
