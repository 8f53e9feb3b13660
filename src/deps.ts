import type { Client as TemporalClient } from '@temporalio/client';
import type { Pool } from 'pg';
import type { Config } from './config.js';
import type { Db, RawReader } from './db/client.js';
import type { CursorCodec } from './http/pagination.js';
import type { RequestRateLimiter } from './http/rate-limit.js';
import type { Logger } from './logger.js';
import type { RunTypeRegistry } from './temporal/run-types.js';
import type { ObjectStorage } from './storage/object-storage.js';

// Everything a request handler may touch, built once in api.ts (and by the test harness).
export interface AppDeps {
  config: Config;
  db: Db;
  // The pool under db, for plain SQL (the rate-limit store, authentication).
  pool: Pool;
  // Raw reads on that pool, outside transactions (a list page's extras): see poolReader.
  reader: RawReader;
  temporal: TemporalClient;
  storage: ObjectStorage;
  logger: Logger;
  cursors: CursorCodec;
  rateLimiter: RequestRateLimiter;
  runTypes: RunTypeRegistry;
}
