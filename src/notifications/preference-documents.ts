import type { MemberActor } from '../auth/actor.js';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { requireOwnerLevel } from './access.js';
import { loadPreference, replacePreference, serializePreference, type Owner } from './preferences.js';
import type { PreferenceInput } from './schemas.js';

// GET and PUT /v1/notification-preferences: the caller's own preference, or the organization's
// (owner=organization), as a document of one preference.

type Deps = Pick<AppDeps, 'db' | 'config'>;

export async function readPreferenceDocument(deps: Deps, actor: MemberActor, owner: Owner) {
  const stored = await loadPreference(deps.db, actor.organizationId, owner, actor.userId);
  return {
    preferences: [await serializePreference(deps.db, deps.config, actor.organizationId, owner, actor.userId, stored)],
  };
}

// Replaces the preference named by owner (the organization's needs Admin); a new webhook channel
// carries its secret in the answer, this once.
export async function replacePreferenceDocument(deps: Deps, actor: MemberActor, owner: Owner, input: PreferenceInput) {
  requireOwnerLevel(actor, owner, true);
  if (input.owner !== owner) {
    throw errors.validation('The preference sent is not the one named by owner.', [
      { field: 'preferences.0.owner', message: `must be ${owner} (the owner query parameter)` },
    ]);
  }
  const { stored, newSecrets } = await replacePreference(deps.db, actor.organizationId, actor.userId, input);
  return {
    preferences: [
      await serializePreference(deps.db, deps.config, actor.organizationId, owner, actor.userId, stored, newSecrets),
    ],
  };
}
