import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { errors } from './errors.js';

// The ETag is a digest of the full representation: any visible change changes it, and no
// per-table version bookkeeping is needed.
export function etagOf(representation: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(representation)).digest('base64url').slice(0, 32);
  return `"${digest}"`;
}

// If-Match is optional; when sent it must name the current representation (or be *).
export function assertIfMatch(ctx: Context, currentRepresentation: unknown): void {
  const ifMatch = ctx.get('If-Match').trim();
  if (!ifMatch || ifMatch === '*') return;
  const current = etagOf(currentRepresentation);
  const candidates = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!candidates.includes(current)) throw errors.preconditionFailed();
}
