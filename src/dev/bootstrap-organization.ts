import { addMember, createApiKey, createIngestionToken, createOrganization } from '../admin/service.js';
import { createPasswordLink } from '../auth/passwords.js';
import type { Db } from '../db/client.js';

// The development organization of `npm start`: created once, with an admin user. Its secrets are
// printed only when created (or when asked with --new-key); only their digests are stored.

export const DEV_ADMIN_EMAIL = 'admin@example.com';
const DEV_ORGANIZATION_NAME = 'Development organization';

export interface DevCredentials {
  apiKey: string;
  ingestionToken: string;
}

export async function bootstrapDevelopmentOrganization(db: Db, options: { newKey: boolean; appBaseUrl: string }) {
  const existing = await db.user.findUnique({ where: { email: DEV_ADMIN_EMAIL }, include: { memberships: true } });
  let organizationId = existing?.memberships[0]?.organizationId;
  let userId = existing?.id;
  const created = !organizationId;
  if (!organizationId || !userId) {
    const organization = await createOrganization(db, { name: DEV_ORGANIZATION_NAME });
    const user = await addMember(db, {
      organizationId: organization.id,
      email: DEV_ADMIN_EMAIL,
      name: 'Development admin',
      role: 'admin',
    });
    organizationId = organization.id;
    userId = user.id;
  }
  let credentials: DevCredentials | null = null;
  if (created || options.newKey) {
    const key = await createApiKey(db, { organizationId, userId, level: 'admin', name: 'Development key' });
    const token = await createIngestionToken(db, {
      organizationId,
      scopes: ['invoices:write', 'invoices:read'],
      name: 'Development token',
    });
    credentials = { apiKey: key.key, ingestionToken: token.token };
  }
  // Until the development admin has a password, each start prints a fresh first-password link.
  const hasPassword = Boolean(
    (await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } }))?.passwordHash,
  );
  const passwordLink = hasPassword
    ? null
    : (await createPasswordLink(db, { userId, appBaseUrl: options.appBaseUrl })).url;
  return { organizationId, userId, credentials, passwordLink };
}
