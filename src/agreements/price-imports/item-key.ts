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
