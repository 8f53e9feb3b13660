import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { Party } from './parsing/model.js';

// Suppliers and recipients are kept once per organization: found again by org number, then VAT
// id, then (for parties without identifiers) by exact name.

type Tx = Prisma.TransactionClient;
type Db = Tx & { $transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T> };
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

interface Identity {
  name: string | null;
  orgNumber: string | null;
  vatId: string | null;
}

function identityOf(party: Party): Identity | null {
  const identity = {
    name: displayName(party),
    orgNumber: normalizeOrgNumber(party.orgNumber),
    vatId: normalizeVatId(party.vatId),
  };
  return identity.name || identity.orgNumber || identity.vatId ? identity : null;
}

// The known party (org number first, then VAT id, then the bare name), learning identifiers it
// did not have yet.
async function findParty(
  client: Tx,
  kind: PartyKind,
  organizationId: string,
  identity: Identity,
): Promise<string | null> {
  const { name, orgNumber, vatId } = identity;
  const candidates = [
    orgNumber ? { orgNumber } : null,
    vatId ? { vatId } : null,
    !orgNumber && !vatId && name ? { name, orgNumber: null, vatId: null } : null,
  ].filter((c) => c !== null);
  for (const where of candidates) {
    const found = await table(client, kind).findFirst({
      where: { organizationId, ...where },
      select: { id: true, orgNumber: true, vatId: true },
    });
    if (found) {
      const learned = {
        ...(orgNumber && !found.orgNumber ? { orgNumber } : {}),
        ...(vatId && !found.vatId ? { vatId } : {}),
      };
      if (Object.keys(learned).length > 0)
        await table(client, kind)
          .update({ where: { id: found.id }, data: learned })
          .catch(() => undefined);
      return found.id;
    }
  }
  return null;
}

// Finds or creates the party inside `tx`, under a per-party lock so that concurrent imports of a
// new party create it once.
export async function resolveParty(
  tx: Tx,
  kind: PartyKind,
  organizationId: string,
  party: Party,
): Promise<string | null> {
  const identity = identityOf(party);
  if (!identity) return null;
  const { name, orgNumber, vatId } = identity;
  // Serializes concurrent imports of the same party within this organization.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`${kind}:${organizationId}:${orgNumber ?? vatId ?? name}`}))`;
  const found = await findParty(tx, kind, organizationId, identity);
  if (found) return found;
  const created = await table(tx, kind).create({
    data: {
      id: randomUUID(),
      organizationId,
      name: name ?? orgNumber ?? vatId!,
      orgNumber,
      vatId,
      countryCode: party.countryCode ?? party.address?.countryCode ?? null,
      address: party.address
        ? {
            lines: party.address.lines,
            city: party.address.city,
            postal_code: party.address.postalCode,
            country_code: party.address.countryCode,
          }
        : undefined,
    },
    select: { id: true },
  });
  return created.id;
}

// Most invoices come from parties already known: one lookup without a transaction or a lock
// finds them; only a party not found yet takes the locked path of resolveParty.
export async function findOrCreateParty(
  db: Db,
  kind: PartyKind,
  organizationId: string,
  party: Party,
): Promise<string | null> {
  const identity = identityOf(party);
  if (!identity) return null;
  return (
    (await findParty(db, kind, organizationId, identity)) ??
    db.$transaction((tx) => resolveParty(tx, kind, organizationId, party))
  );
}
