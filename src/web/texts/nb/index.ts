import type { DeepPartial, Texts } from '../types.js';
import { agreementSetup } from './agreement-setup.js';
import { agreements } from './agreements.js';
import { alerts } from './alerts.js';
import { auth } from './auth.js';
import { claim } from './claim.js';
import { claims } from './claims.js';
import { codes } from './codes.js';
import { integrations } from './integrations.js';
import { invoices } from './invoices.js';
import { notifications } from './notifications.js';
import { overview } from './overview.js';
import { review } from './review.js';
import { runs } from './runs.js';
import { search } from './search.js';
import { settings } from './settings.js';
import { shell } from './shell.js';
import { teams } from './teams.js';
import { triage } from './triage.js';
import { upload } from './upload.js';

// Norwegian (bokmål), one file per area as in `../en/`. A key missing here falls back to English;
// test/unit/web/texts.test.ts lists what is still missing.
export const nb: DeepPartial<Texts> = {
  review,
  teams,
  notifications,
  invoices,
  upload,
  runs,
  triage,
  agreementSetup,
  claim,
  codes,
  agreements,
  alerts,
  claims,
  overview,
  search,
  shell,
  auth,
  settings,
  integrations,
};
