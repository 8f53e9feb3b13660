import type { Prisma } from '../../generated/prisma/client.js';
import { errors } from '../../http/errors.js';
import type { FilterCondition } from './schemas.js';
import { containsText } from '../../http/schemas.js';

// Price item filter conditions into a Prisma where clause. Each condition is checked for a value
// of the right kind, so a bad filter is a validation_error, never a database error.

const COLUMNS = {
  description: { column: 'description', kind: 'text', required: true },
  seller_item_id: { column: 'sellerItemId', kind: 'text' },
  unit: { column: 'unit', kind: 'text' },
  currency_code: { column: 'currencyCode', kind: 'text' },
  valid_from: { column: 'validFrom', kind: 'date' },
  valid_until: { column: 'validUntil', kind: 'date' },
  'price.type': { column: 'priceType', kind: 'enum', required: true },
  'price.amount': { column: 'amount', kind: 'decimal' },
  'price.fraction': { column: 'fraction', kind: 'decimal' },
  'price.basis': { column: 'basis', kind: 'text' },
} as const satisfies Record<string, { column: string; kind: string; required?: boolean }>;

// A column every price item has: is_null matches none, is_not_null all (Prisma refuses null there).
const NONE: Prisma.PriceItemWhereInput = { id: { in: [] } };

const ORDERED = new Set(['less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal']);
const PRISMA_OPERATOR: Record<string, string> = {
  less_than: 'lt',
  less_than_or_equal: 'lte',
  greater_than: 'gt',
  greater_than_or_equal: 'gte',
};

function invalid(index: number, message: string) {
  return errors.validation(`filters[${index}]: ${message}`, [{ field: `filters.${index}`, message }]);
}

function typedValue(index: number, kind: string, value: FilterCondition['value']): unknown {
  const text = value === null || value === undefined ? null : String(value);
  if (text === null) throw invalid(index, 'needs a value');
  if (kind === 'date') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw invalid(index, 'the value must be a date YYYY-MM-DD');
    return new Date(`${text}T00:00:00Z`);
  }
  if (kind === 'decimal' && !/^-?\d+(\.\d+)?$/.test(text)) throw invalid(index, 'the value must be a decimal string');
  if (kind === 'enum' && !['amount', 'rate'].includes(text)) throw invalid(index, 'the value must be amount or rate');
  return text;
}

function conditionWhere(condition: FilterCondition, index: number): Prisma.PriceItemWhereInput {
  const { column, kind } = COLUMNS[condition.field];
  const required = 'required' in COLUMNS[condition.field];
  switch (condition.operator) {
    case 'is_null':
      return required ? NONE : { [column]: null };
    case 'is_not_null':
      return required ? {} : { NOT: { [column]: null } };
    case 'contains':
      if (kind !== 'text') throw invalid(index, `contains works on text fields, not ${condition.field}`);
      return { [column]: containsText(String(typedValue(index, kind, condition.value))) };
    case 'equals':
      return { [column]: typedValue(index, kind, condition.value) };
    case 'not_equals':
      return { NOT: { [column]: typedValue(index, kind, condition.value) } };
    default:
      if (!ORDERED.has(condition.operator) || kind === 'text' || kind === 'enum')
        throw invalid(index, `${condition.operator} works on dates and numbers`);
      return { [column]: { [PRISMA_OPERATOR[condition.operator]!]: typedValue(index, kind, condition.value) } };
  }
}

export function priceItemWhere(
  agreementId: string,
  search: string | undefined,
  conditions: FilterCondition[] | undefined,
): Prisma.PriceItemWhereInput {
  return {
    AND: [
      { agreementId },
      search ? { OR: [{ description: containsText(search) }, { sellerItemId: containsText(search) }] } : {},
      ...(conditions ?? []).map(conditionWhere),
    ],
  };
}
