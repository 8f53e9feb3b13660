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
];
async function main() {
  const db = createDb('postgresql://postgres@127.0.0.1:5432/teams_scratch');
  for (const target of ['invoice', 'alert', 'agreement', 'claim'] as const) {
    for (const c of all) {
      const sql = compileFilter({ schema_version: 1, root: { combinator: 'and', children: [c as never] } }, target, 't0');
      const table = Prisma.raw({ invoice: 'invoices', alert: 'alerts', agreement: 'agreements', claim: 'claims' }[target]);
      try { await db.$queryRaw`SELECT t0.id FROM ${table} t0 WHERE ${sql} LIMIT 1`; } catch (e) { console.log(target, JSON.stringify(c).slice(0, 80), String(e).split('\n').slice(-3).join(' ').slice(0, 300)); }
    }
  }
  await db.$disconnect();
}
void main();
