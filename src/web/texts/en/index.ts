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

// The application's words in English, one file per area of the application. English is complete
// by definition: every other language is checked against it (test/unit/web/texts.test.ts).
export const en = {
  overview,
  search,
  triage,
  review,
  agreementSetup,
  claim,
  teams,
  notifications,
  invoices,
  upload,
  runs,
  codes,
  agreements,
  alerts,
  claims,
  shell,
  auth,
  settings,
  integrations,
};
