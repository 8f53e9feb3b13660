import { z } from 'zod';
import { pageParams } from '../http/pagination.js';
import { acceptingReadShape } from '../http/schemas.js';
import { teamFilterSchema } from './filter/index.js';

// Team names: the spec is silent; 1 to 200 characters, like other names of the API.
const teamName = z.string().trim().min(1).max(200);
// Members per request: bounded like every other id list of the API.
const userIds = z.array(z.string().uuid()).max(1000);

export const teamListQuery = z.object({ ...pageParams(['created_at', 'name']) });

export const addMembersSchema = z.strictObject({ user_ids: z.array(z.string().uuid()).min(1).max(1000) });

export const teamSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    user_ids: z.array(z.string().uuid()),
    filter: z
      .unknown()
      .meta({ description: 'The definition exactly as stored (null, or even an invalid legacy definition)' }),
    filter_status: z
      .enum(['valid', 'invalid', 'none'])
      .meta({ description: 'none: no filter; invalid: the stored definition does not validate and matches nothing' }),
    filter_errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Present when filter_status is invalid' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .meta({ id: 'Team' });

// What GET returned can be sent back (docs/teams.md "Writing back"): the read-only fields (id,
// filter_status, filter_errors, timestamps) are accepted and ignored.
const createTeamInput = z.strictObject({
  name: teamName,
  user_ids: userIds.default([]),
  filter: teamFilterSchema.default(null),
});
export const createTeamSchema = acceptingReadShape(createTeamInput, teamSchema).meta({ id: 'TeamCreate' });

const patchTeamInput = z.strictObject({
  name: teamName.optional(),
  // Checked by the service, not here: the filter exactly as stored (even an invalid legacy one,
  // which a read returns verbatim) changes nothing; any other value must be a valid definition
  // or null. A sent filter replaces the whole filter; null removes it (the team then matches nothing).
  filter: z
    .unknown()
    .optional()
    .meta({ description: 'A TeamFilter or null; the filter as read is accepted and changes nothing' }),
  // Members change through /members; sent back as read (in any order) they are accepted.
  user_ids: userIds
    .optional()
    .meta({ description: 'Read-only here (use /members): accepted when it lists the current members' }),
});
export const patchTeamSchema = acceptingReadShape(patchTeamInput, teamSchema)
  .refine((body) => body.name !== undefined || body.filter !== undefined || body.user_ids !== undefined, {
    message: 'send name and/or filter',
  })
  .meta({ id: 'TeamPatch' });
