import { z } from 'zod';
import { pageParams } from '../http/pagination.js';

// Suppliers and recipients: the parties on invoices, de-duplicated per organization by org
// number / VAT id when invoices are imported. Both lists share one shape.

export const addressSchema = z
  .object({
    lines: z.array(z.string()),
    city: z.string().nullable(),
    postal_code: z.string().nullable(),
    country_code: z.string().nullable(),
  })
  .nullable();

export const partySchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    org_number: z.string().nullable(),
    vat_id: z.string().nullable(),
    country_code: z.string().nullable(),
    address: addressSchema,
    created_at: z.string().datetime(),
  })
  .meta({ id: 'Party' });

export const partyListQuery = z.object({
  ...pageParams(['name', 'created_at']),
  search: z.string().min(1).max(200).optional().meta({ description: 'Matches name, org number or VAT id' }),
});
