import { agreementSetup } from './agreement-setup.js';
import { auth } from './auth.js';
import { claim } from './claim.js';
import { integrations } from './integrations.js';
import { notifications } from './notifications.js';
import { overview } from './overview.js';
import { review } from './review.js';
import { search } from './search.js';
import { settings } from './settings.js';
import { shell } from './shell.js';
import { teams } from './teams.js';
import { triage } from './triage.js';

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
  shell,
  auth,
  settings,
  integrations,
};
