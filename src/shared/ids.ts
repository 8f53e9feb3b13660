import { createHash } from 'node:crypto';

// A UUID (version 5 layout) derived from a name: the same name always gives the same id. Used to
// turn an Idempotency-Key or a "retry of run X" into a workflow id, so repeats cannot start twice.
const NAMESPACE = 'invoice-compliance-service';

export function deterministicUuid(name: string): string {
  const bytes = createHash('sha1').update(`${NAMESPACE}:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
