import { z } from 'zod';
import { LEVELS } from '../auth/levels.js';
import { pageParams } from '../http/pagination.js';

export const organizationListQuery = z.object(pageParams(['name']));
export const memberListQuery = z.object({ ...pageParams(['joined_at']) });

export const organizationSummarySchema = z
  .object({ id: z.string().uuid(), name: z.string(), role: z.enum(LEVELS), currency_code: z.string() })
  .meta({ id: 'OrganizationSummary' });

export const organizationAccessSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    currency_code: z.string(),
    role: z.enum(LEVELS).meta({ description: "The key owner's role in the organization" }),
    key_level: z.enum(LEVELS).meta({ description: 'The level the key was created with' }),
    level: z.enum(LEVELS).meta({ description: 'What the key can do here: the lower of key_level and role' }),
    can: z.object({ read: z.boolean(), write: z.boolean(), admin: z.boolean() }),
    settings: z
      .object({
        line_rounding_minor_units: z.number().int().meta({
          description:
            "How far a line's net amount may be from quantity x price (after line allowances and charges) and still be rounding, in the currency's smallest unit: 1 is one cent",
        }),
      })
      .meta({
        description: 'Settings of the organization the checks read (changed by an administrator of the service)',
      }),
  })
  .meta({ id: 'OrganizationAccess' });

export const meSchema = z
  .object({
    id: z.string().uuid(),
    user_id: z.string().uuid(),
    email: z.string(),
    name: z.string().nullable(),
    organization_id: z.string().uuid(),
    role: z.enum(LEVELS),
    // null when the request authenticated with a session bearer of the web application.
    api_key: z.object({ id: z.string().uuid(), name: z.string(), level: z.enum(LEVELS) }).nullable(),
  })
  .meta({ id: 'Me' });

export const memberSchema = z
  .object({
    id: z.string().uuid().meta({ description: 'The user ID' }),
    user_id: z.string().uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(LEVELS),
    joined_at: z.string().datetime(),
  })
  .meta({ id: 'Member' });
