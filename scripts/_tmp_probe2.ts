import { randomUUID } from 'node:crypto';
import { createDb, Prisma } from '../src/db/client.js';
import { compileFilter } from '../src/teams/filter/index.js';
const cond = (field: string, op: string, value: unknown) => ({ field, op, value });
const all = [
  cond('supplier.country', 'is_any_of', ['NO', 'SE']), cond('invoice.amount', 'gte', 1), cond('invoice.amount', 'lt', '1000000'),
  cond('invoice.issued_date', 'within', 'last_365_days'), cond('invoice.reference', 'not_contains', 'VOID'), cond('invoice.currency', 'is_none_of', ['USD']),
  cond('supplier.id', 'is_any_of', [randomUUID()]), cond('agreement.tag', 'is', randomUUID()), cond('agreement.expiration_date', 'within', 'expiring_90_days'),
  cond('invoice.issued_date', 'on_or_after', '2026-01-01'), cond('recipient.id', 'is_not', randomUUID()), cond('invoice.delivery_address', 'contains', 'Oslo'),
  cond('agreement.id', 'is_any_of', [randomUUID()]), cond('invoice.reference', 'is', 'PO-7'), cond('supplier.id', 'is_none_of', [randomUUID()]), cond('invoice.amount', 'lte', 10),
  cond('agreement.expiration_date', 'after', '2020-01-01'), cond('invoice.issued_date', 'before', '2100-01-01'),
  cond('invoice.delivery_address', 'is', 'Oslo'),
];
async function main() {
  const db = createDb('postgresql://postgres@127.0.0.1:5432/teams_scratch');
  const organizationId = randomUUID();
  const supplierId = randomUUID(); const agreementId = randomUUID(); const invoiceId = randomUUID();
  await db.supplier.create({ data: { id: supplierId, organizationId, name: 'S', countryCode: 'NO' } });
  await db.agreement.create({ data: { id: agreementId, organizationId, title: 'A', expirationDate: new Date(), suppliers: { create: [{ supplierId }] } } });
  await db.invoice.create({ data: { id: invoiceId, organizationId, source: 'api', processingStatus: 'completed', documentType: 'invoice', invoiceNumber: 'X', issueDate: new Date(), currencyCode: 'EUR', taxInclusiveAmount: new Prisma.Decimal('12.50'), orderReference: 'PO-7', deliveryAddress: { lines: ['Street 1'], city: 'Oslo', postalCode: '0150', countryCode: 'NO' }, supplierId } });
  await db.invoiceAgreementMatch.create({ data: { invoiceId, agreementId, organizationId, reasons: [] } });
  await db.alert.create({ data: { id: randomUUID(), organizationId, invoiceId, agreementId, title: 't', explanation: 'e', impactAmount: new Prisma.Decimal('1'), currencyCode: 'EUR', confidenceLevel: 'certain', citations: [], origin: 'user' } });
  const full = { schema_version: 1, root: { combinator: 'and', children: [...all.slice(0, 6), { combinator: 'or', children: [all[6], all[7], all[8], { combinator: 'and', children: [all[9], all[1], all[2]] }] }, { combinator: 'or', children: [all[10], all[11], all[12], { combinator: 'and', children: [all[13], all[14], all[15]] }] }, all[16], all[17]] } };
  for (const target of ['invoice', 'alert'] as const) {
    const sql = compileFilter(full as never, target, 't0');
    const table = Prisma.raw({ invoice: 'invoices', alert: 'alerts', agreement: 'agreements', claim: 'claims' }[target]);
    try { const r = await db.$queryRaw<unknown[]>`SELECT t0.id FROM ${table} t0 WHERE ${sql} LIMIT 1`; console.log('full', target, r.length); } catch (e) { console.log('ERR full', target, String(e).split('\n').slice(-4).join(' ').slice(0, 600)); }
  }
  for (const target of [] as const) {
    for (const c of all) {
      const sql = compileFilter({ schema_version: 1, root: { combinator: 'and', children: [c as never] } }, target, 't0');
      const table = Prisma.raw({ invoice: 'invoices', alert: 'alerts', agreement: 'agreements', claim: 'claims' }[target]);
      try { const r = await db.$queryRaw<unknown[]>`SELECT t0.id FROM ${table} t0 WHERE ${sql} LIMIT 1`; console.log(target, c.field, c.op, r.length); } catch (e) { console.log('ERR', target, JSON.stringify(c).slice(0, 80), String(e).split('\n').slice(-4).join(' ').slice(0, 400)); }
    }
  }
  await db.$disconnect();
}
void main();
