import type { DeepPartial, Texts } from '../types.js';
import { auth } from './auth.js';
import { integrations } from './integrations.js';
import { overview } from './overview.js';
import { search } from './search.js';
import { settings } from './settings.js';
import { shell } from './shell.js';

// Norwegian (bokmål), one file per area as in `../en/`. A key missing here falls back to English;
// test/unit/web/texts.test.ts lists what is still missing.
export const nb: DeepPartial<Texts> = {
  overview,
  search,
  shell,
  auth,
  settings,
  integrations,
};
