import type { Texts } from '../types.js';

export const search: Texts['search'] = {
  title: 'Søk',
  label: 'Søk',
  placeholder: 'Faktura, avtale, varsel, krav …',
  submit: 'Søk',
  resultsFor: 'Resultater for',
  resultsForQuery: (text: string) => `Resultater for «${text}»`,
  none: 'Fant ingenting.',
  more: 'Flere resultater',
  kinds: {
    invoice: 'Fakturaer',
    agreement: 'Avtaler',
    alert: 'Varsler',
    claim: 'Krav',
    topic: 'Emner',
  },
};
