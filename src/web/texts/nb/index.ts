import type { DeepPartial, Texts } from '../types.js';

// Norwegian (bokmål), one file per area as in `../en/`. A key missing here falls back to English;
// test/unit/web/texts.test.ts lists what is still missing.
export const nb: DeepPartial<Texts> = {};
