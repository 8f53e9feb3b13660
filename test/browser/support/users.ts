import { randomUUID } from 'node:crypto';
import { addMember, createOrganization } from '../../../src/admin/service.js';
import type { Level } from '../../../src/auth/levels.js';
import { hashPassword } from '../../../src/auth/passwords.js';
import { testDb } from '../../support/tenants.js';

// People who sign in to the application: an organization of their own, a member with a password.

export const PASSWORD = 'correct horse battery staple';

export interface WebUser {
  organizationId: string;
  userId: string;
  email: string;
  password: string;
}

export async function createWebUser(
  options: { role?: Level; organizationId?: string; organizationName?: string; name?: string } = {},
): Promise<WebUser> {
  const db = testDb();
  const organizationId =
    options.organizationId ??
    (await createOrganization(db, { name: options.organizationName ?? `Org ${randomUUID().slice(0, 8)}` })).id;
  const email = `${randomUUID().slice(0, 8)}@example.test`;
  const user = await addMember(db, {
    organizationId,
    email,
    name: options.name ?? 'Test Person',
    role: options.role ?? 'admin',
  });
  await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return { organizationId, userId: user.id, email, password: PASSWORD };
}

// A password for a user made by the API tests' helpers (createTenant), so they can sign in too.
export async function givePassword(userId: string): Promise<string> {
  await testDb().user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(PASSWORD) } });
  return (await testDb().user.findUniqueOrThrow({ where: { id: userId } })).email;
}
