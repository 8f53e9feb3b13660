export const LEVELS = ['read', 'write', 'admin'] as const;
export type Level = (typeof LEVELS)[number];

export const INGESTION_SCOPES = ['invoices:write', 'invoices:read'] as const;
export type IngestionScope = (typeof INGESTION_SCOPES)[number];

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export function atLeast(held: Level, required: Level): boolean {
  return levelRank(held) >= levelRank(required);
}

// A key never does more than its owner's role in the organization allows.
export function effectiveLevel(keyLevel: Level, role: Level): Level {
  return levelRank(keyLevel) <= levelRank(role) ? keyLevel : role;
}
