import { z } from 'zod';
import { teamFilterSchema } from './filter/index.js';

// Team names: the spec is silent; 1 to 200 characters, like other names of the API.
const teamName = z.string().trim().min(1).max(200);
// Members per request: bounded like every other id list of the API.
const userIds = z.array(z.string().uuid()).max(1000);

export const createTeamSchema = z.strictObject({
  name: teamName,
  user_ids: userIds.default([]),
  filter: teamFilterSchema.default(null),
});

export const patchTeamSchema = z
  .strictObject({
    name: teamName.optional(),
    // A sent filter replaces the whole filter; null removes it (the team then matches nothing).
    filter: teamFilterSchema.optional(),
  })
  .refine((body) => body.name !== undefined || body.filter !== undefined, { message: 'send name and/or filter' });

export const addMembersSchema = z.strictObject({ user_ids: z.array(z.string().uuid()).min(1).max(1000) });

export const teamSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    user_ids: z.array(z.string().uuid()),
    filter: z.unknown().meta({ description: 'The definition exactly as stored (null, or even an invalid legacy definition)' }),
    filter_status: z.enum(['valid', 'invalid', 'none']).meta({ description: 'none: no filter; invalid: the stored definition does not validate and matches nothing' }),
    filter_errors: z.array(z.object({ field: z.string(), message: z.string() })).optional().meta({ description: 'Present when filter_status is invalid' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Team' });
