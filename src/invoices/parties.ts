import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { Party } from './parsing/model.js';

// Suppliers and recipients are kept once per organization: found again by org number, then VAT
// id, then (for parties without identifiers) by exact name.

type Tx = Prisma.TransactionClient;
export type PartyKind = 'supplier' | 'recipient';

export function normalizeOrgNumber(value: string | null): string | null {
  const cleaned = value?.replace(/[\s.-]/g, '') ?? '';
  return cleaned || null;
}

export function normalizeVatId(value: string | null): string | null {
  const cleaned = value?.replace(/[\s.-]/g, '').toUpperCase() ?? '';
  return cleaned || null;
}

function displayName(party: Party): string | null {
  return party.name?.trim() || party.legalName?.trim() || null;
}

function table(tx: Tx, kind: PartyKind) {
  // Both tables have the same shape; the cast lets one function serve both.
  return (kind === 'supplier' ? tx.supplier : tx.recipient) as unknown as Tx['supplier'];
}

export async function resolveParty(tx: Tx, kind: PartyKind, organizationId: string, party: Party): Promise<string | null> {
  const name = displayName(party);
  const orgNumber = normalizeOrgNumber(party.orgNumber);
  const vatId = normalizeVatId(party.vatId);
  if (!name && !orgNumber && !vatId) return null;
  // Serializes concurrent imports of the same party within this organization.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`${kind}:${organizationId}:${orgNumber ?? vatId ?? name}`}))`;
  const candidates = [
    orgNumber ? { orgNumber } : null,
    vatId ? { vatId } : null,
    !orgNumber && !vatId && name ? { name, orgNumber: null, vatId: null } : null,
  ].filter((c) => c !== null);
  for (const where of candidates) {
    const found = await table(tx, kind).findFirst({ where: { organizationId, ...where }, select: { id: true, orgNumber: true, vatId: true } });
    if (found) {
      // Learn identifiers the party did not have yet.
      const learned = { ...(orgNumber && !found.orgNumber ? { orgNumber } : {}), ...(vatId && !found.vatId ? { vatId } : {}) };
      if (Object.keys(learned).length > 0) await table(tx, kind).update({ where: { id: found.id }, data: learned }).catch(() => undefined);
      return found.id;
    }
  }
  const created = await table(tx, kind).create({
    data: {
      id: randomUUID(),
      organizationId,
      name: name ?? orgNumber ?? vatId!,
      orgNumber,
      vatId,
      countryCode: party.countryCode ?? party.address?.countryCode ?? null,
      address: party.address ? { lines: party.address.lines, city: party.address.city, postal_code: party.address.postalCode, country_code: party.address.countryCode } : undefined,
    },
    select: { id: true },
  });
  return created.id;
}
