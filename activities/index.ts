import type { Db } from '../src/db/client.js';
import type { Logger } from '../src/logger.js';
import type { ObjectStorage } from '../src/storage/object-storage.js';
import { createAgreementDocumentActivities } from './agreement-documents.js';
import { createCheckActivities } from './checks.js';
import { createImportActivities } from './imports.js';
import { createIntegrationActivities } from './integrations.js';
import { createMatchingActivities } from './matching.js';
import { createPriceImportActivities } from './price-imports.js';
import { createRunActivities } from './runs.js';
import { createTopicActivities } from './topics.js';
import { createTestActivities } from './testing.js';
import { withFailureClassification } from './failures.js';
import { createNotificationActivities } from './notifications.js';
import type { Config } from '../src/config.js';

// All I/O of the workflows lives here; activities get their clients injected (never imported
// into workflow code).
export interface ActivityDeps {
  db: Db;
  storage: ObjectStorage;
  logger: Logger;
  // INTEGRATION_KEYS: integration credentials are decrypted only in activities.
  integrationKeys?: string;
  // The worker's configuration (notification delivery reads SMTP and webhook settings).
  config?: Config;
}

export function createActivities(deps: ActivityDeps, options: { includeTestActivities: boolean }) {
  return withFailureClassification(allActivities(deps, options), deps.logger);
}

function allActivities(deps: ActivityDeps, options: { includeTestActivities: boolean }) {
  return {
    ...createRunActivities(deps.db),
    ...createImportActivities(deps),
    ...createMatchingActivities(deps.db),
    ...createCheckActivities(deps.db, deps.logger),
    ...createPriceImportActivities(deps),
    ...createAgreementDocumentActivities(deps),
    ...createTopicActivities(deps.db),
    ...createIntegrationActivities(deps),
    ...createNotificationActivities(deps.db, deps.config),
    ...(options.includeTestActivities ? createTestActivities() : {}),
  };
}
