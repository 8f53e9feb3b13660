import { Decimal } from 'decimal.js';
import type { PriceItem } from '../price-lists/model.js';

// What makes two price items the same for an import: a row equal to an item already on the
// agreement (or to an earlier row of the same list) is skipped as a duplicate. The import's
// activity and its preview compare by this one key.
export interface ItemKeyFields {
  description: string;
  sellerItemId: string | null;
  unit: string | null;
  currencyCode: string | null;
  priceType: string;
  amount: string | null;
  fraction: string | null;
  basis: string | null;
  validFrom?: string | null;
  validUntil: string | null;
}

export function priceItemKey(item: ItemKeyFields): string {
  return JSON.stringify([
    item.description.toLowerCase(),
    item.sellerItemId,
    item.unit,
    item.currencyCode,
    item.priceType,
    item.amount,
    item.fraction,
    item.basis,
    item.validFrom ?? null,
    item.validUntil,
  ]);
}

// An item as stored (Prisma decimals and dates) and an item as a price list reads it (decimal
// strings as written), keyed alike: amounts in their shortest form, dates as YYYY-MM-DD.
interface StoredItem {
  description: string;
  sellerItemId: string | null;
  unit: string | null;
  currencyCode: string | null;
  priceType: string;
  amount: { toFixed(): string } | null;
  fraction: { toFixed(): string } | null;
  basis: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
}

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

export function storedItemKey(item: StoredItem): string {
  return priceItemKey({
    ...item,
    amount: item.amount?.toFixed() ?? null,
    fraction: item.fraction?.toFixed() ?? null,
    validFrom: day(item.validFrom),
    validUntil: day(item.validUntil),
  });
}

export function readItemKey(item: PriceItem): string {
  return priceItemKey({
    description: item.description,
    sellerItemId: item.sellerItemId,
    unit: item.unit,
    currencyCode: item.currencyCode,
    priceType: item.price.type,
    amount: item.price.type === 'amount' ? new Decimal(item.price.amount).toFixed() : null,
    fraction: item.price.type === 'rate' ? new Decimal(item.price.fraction).toFixed() : null,
    basis: item.price.type === 'rate' ? item.price.basis : null,
    validFrom: item.validFrom ?? null,
    validUntil: item.validUntil,
  });
}
