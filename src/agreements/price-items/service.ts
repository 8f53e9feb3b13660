import { randomUUID } from 'node:crypto';
import { countInBatches } from '../../shared/batches.js';
import { changedFields, recordActivity, type Actor } from '../../activity/record.js';
import type { RequestActor } from '../../auth/actor.js';
import type { AppDeps } from '../../deps.js';
import { Prisma } from '../../db/client.js';
import type { PriceItem } from '../../generated/prisma/client.js';
import { errors } from '../../http/errors.js';
import { assertSentAsRead } from '../../http/schemas.js';
import { formatDecimal } from '../../shared/money.js';
import type { UnitConversion } from '../units/conversion.js';
import { priceItemWhere } from './filters.js';
import { priceItemProblems, type FilterCondition, type PriceItemInput, type UnitConversionInput } from './schemas.js';
import { lockAgreementTerms, markAgreementTermsChanged } from '../terms-state.js';
import { insertPriceItems, type PriceItemRow } from '../price-imports/bulk-insert.js';

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

export function serializePriceItem(item: PriceItem) {
  return {
    id: item.id,
    agreement_id: item.agreementId,
    description: item.description,
    seller_item_id: item.sellerItemId,
    unit: item.unit,
    currency_code: item.currencyCode,
    price:
      item.priceType === 'amount'
        ? { type: 'amount' as const, amount: formatDecimal(item.amount)! }
        : { type: 'rate' as const, fraction: formatDecimal(item.fraction)!, basis: item.basis ?? '' },
    valid_from: day(item.validFrom),
    valid_until: day(item.validUntil),
    unit_conversions: unitConversionsOf(item.unitConversions),
    source_document_id: item.sourceDocumentId,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
  };
}

// Stored as the checks read them ({fromUnit, quantity, toUnit}); shown in the API's words.
function unitConversionsOf(value: unknown) {
  if (!Array.isArray(value)) return [];
  return (value as UnitConversion[]).map((c) => ({
    from_unit: c.fromUnit,
    quantity: String(c.quantity),
    to_unit: c.toUnit,
  }));
}

function storedConversions(
  input: UnitConversionInput[] | null | undefined,
): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (!input || input.length === 0) return Prisma.DbNull;
  return input.map((c) => ({
    fromUnit: c.from_unit,
    quantity: new Prisma.Decimal(c.quantity).toFixed(),
    toUnit: c.to_unit,
  }));
}

// A price item's fields as the API shows them, without ids and timestamps: what its activity entries compare.
const PRICE_ITEM_FIELDS = [
  'agreement_id',
  'description',
  'seller_item_id',
  'unit',
  'currency_code',
  'price',
  'valid_from',
  'valid_until',
  'unit_conversions',
  'source_document_id',
] as const;

export function priceItemActivity(action: string, before: PriceItem | null, after: PriceItem | null) {
  const view = (item: PriceItem | null) => (item ? (serializePriceItem(item) as Record<string, unknown>) : {});
  return {
    entityType: 'price_item' as const,
    entityId: (after ?? before)!.id,
    action,
    changes: changedFields(view(before), view(after), PRICE_ITEM_FIELDS),
  };
}

export function priceColumns(input: Partial<PriceItemInput>): Prisma.PriceItemUncheckedUpdateInput {
  const data: Prisma.PriceItemUncheckedUpdateInput = {};
  if (input.description !== undefined) data.description = input.description;
  if (input.seller_item_id !== undefined) data.sellerItemId = input.seller_item_id;
  if (input.unit !== undefined) data.unit = input.unit;
  if (input.currency_code !== undefined) data.currencyCode = input.currency_code;
  if (input.valid_from !== undefined)
    data.validFrom = input.valid_from ? new Date(`${input.valid_from}T00:00:00Z`) : null;
  if (input.valid_until !== undefined)
    data.validUntil = input.valid_until ? new Date(`${input.valid_until}T00:00:00Z`) : null;
  if (input.unit_conversions !== undefined) data.unitConversions = storedConversions(input.unit_conversions);
  if (input.price) {
    data.priceType = input.price.type;
    data.amount = input.price.type === 'amount' ? new Prisma.Decimal(input.price.amount) : null;
    data.fraction = input.price.type === 'rate' ? new Prisma.Decimal(input.price.fraction) : null;
    data.basis = input.price.type === 'rate' ? input.price.basis : null;
  }
  return data;
}

// All or nothing: one transaction for every entry. Up to 5,000 entries a request: written with
// one array parameter per column (insertPriceItems), as a price list's rows are; Prisma's
// createMany was slow enough per row to run past the transaction's time limit (docs/benchmarks.md).
export async function createPriceItems(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  organizationId: string,
  agreementId: string,
  entries: PriceItemInput[],
  sourceDocumentId: string | null = null,
) {
  const rows: PriceItemRow[] = entries.map((entry) => ({
    id: randomUUID(),
    organizationId,
    agreementId,
    description: entry.description,
    sellerItemId: entry.seller_item_id ?? null,
    unit: entry.unit ?? null,
    currencyCode: entry.currency_code ?? null,
    priceType: entry.price.type,
    amount: entry.price.type === 'amount' ? entry.price.amount : null,
    fraction: entry.price.type === 'rate' ? entry.price.fraction : null,
    basis: entry.price.type === 'rate' ? entry.price.basis : null,
    validFrom: entry.valid_from ?? null,
    validUntil: entry.valid_until ?? null,
    unitConversions: entry.unit_conversions?.length ? JSON.stringify(storedConversions(entry.unit_conversions)) : null,
    sourceDocumentId,
  }));
  return deps.db.$transaction(
    async (tx) => {
      await lockAgreementTerms(tx, agreementId);
      await insertPriceItems(tx, rows);
      await markAgreementTermsChanged(tx, agreementId);
      // In the order of the entries (they share one created_at).
      const created = new Map(
        (await tx.priceItem.findMany({ where: { id: { in: rows.map((r) => r.id) } } })).map((item) => [item.id, item]),
      );
      const ordered = rows.map((row) => created.get(row.id)!);
      await recordActivity(
        tx,
        organizationId,
        actor,
        ordered.map((item) => priceItemActivity('created', null, item)),
      );
      return ordered;
    },
    { timeout: 60_000 },
  );
}

// `sent` is the request's entries as sent (before validation dropped the fields it does not
// accept): an item stays on its agreement and keeps its source, so those are accepted only as read.
export async function patchPriceItems(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  agreementId: string,
  entries: (Partial<PriceItemInput> & { id: string })[],
  sent: readonly unknown[],
) {
  const ids = entries.map((e) => e.id);
  const existing = await deps.db.priceItem.findMany({ where: { agreementId, id: { in: ids } } });
  entries.forEach((entry, index) => {
    const item = existing.find((c) => c.id === entry.id);
    if (item)
      assertSentAsRead(
        sent[index],
        serializePriceItem(item),
        ['agreement_id', 'source_document_id'],
        `entries.${index}.`,
      );
  });
  const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (duplicates.length)
    throw errors.validation(
      'Each price item may appear once per request.',
      duplicates.map((id) => ({ field: 'entries', message: `${id} appears twice` })),
    );
  const unknown = ids.filter((id) => !existing.some((item) => item.id === id));
  if (unknown.length)
    throw errors.validation(
      'Some entries name no price item of this agreement; nothing was changed.',
      unknown.map((id) => ({ field: 'entries', message: `no price item ${id}` })),
    );
  // Each item as it would be after its changes: a start after its end, or a conversion without its unit, is refused.
  const problems = entries.flatMap((entry, index) => {
    const merged = { ...serializePriceItem(existing.find((item) => item.id === entry.id)!), ...entry };
    return priceItemProblems(merged).map((problem) => ({
      field: ['entries', index, ...problem.path].join('.'),
      message: problem.message,
    }));
  });
  if (problems.length)
    throw errors.validation('Some entries would make a price item contradict itself; nothing was changed.', problems);
  await deps.db.$transaction(async (tx) => {
    await lockAgreementTerms(tx, agreementId);
    const activity = [];
    for (const { id, ...changes } of entries) {
      const before = existing.find((item) => item.id === id)!;
      const entry = priceItemActivity('updated', before, {
        ...before,
        ...(priceColumns(changes) as Partial<PriceItem>),
      });
      // An entry sent back as it was read changes nothing (not even updated_at).
      if (Object.keys(entry.changes).length === 0) continue;
      await tx.priceItem.update({ where: { id }, data: priceColumns(changes) });
      activity.push(entry);
    }
    if (activity.length === 0) return;
    await markAgreementTermsChanged(tx, agreementId);
    await recordActivity(tx, existing[0]!.organizationId, actor, activity);
  });
  const items = await deps.db.priceItem.findMany({ where: { id: { in: ids } } });
  return ids.map((id) => items.find((item) => item.id === id)!);
}

// Which price items to remove: by id, or every item the list shows with the same search and filters.
export type PriceItemSelection = { ids: string[] } | { search?: string; filters?: FilterCondition[] };

// Removes the selected price items of the agreement, recording each removal.
export async function deletePriceItems(
  deps: Pick<AppDeps, 'db'>,
  actor: RequestActor | Actor,
  organizationId: string,
  agreementId: string,
  selection: PriceItemSelection,
): Promise<number> {
  const where =
    'ids' in selection
      ? { agreementId, id: { in: selection.ids } }
      : priceItemWhere(agreementId, selection.search, selection.filters);
  return deps.db.$transaction(async (tx) => {
    await lockAgreementTerms(tx, agreementId);
    const doomed = await tx.priceItem.findMany({ where: { AND: [where, { agreementId }] } });
    if (doomed.length === 0) return 0;
    const count = await countInBatches(
      doomed.map((item) => item.id),
      (ids) => tx.priceItem.deleteMany({ where: { id: { in: ids } } }),
    );
    await markAgreementTermsChanged(tx, agreementId);
    await recordActivity(
      tx,
      organizationId,
      actor,
      doomed.map((item) => priceItemActivity('deleted', item, null)),
    );
    return count;
  });
}
