import type { Texts } from '../types.js';

// The claim page's keyboard shortcuts in Norwegian (bokmål).
export const claim: Texts['claim'] = {
  shortcuts: 'Hurtigtaster',
  keys: [
    ['j', 'neste varsel'],
    ['k', 'forrige varsel'],
    ['o', 'åpne varselet'],
    ['l', 'åpne forhåndsvisningen av brevet'],
    ['p', 'last ned brevet (PDF)'],
    ['r', 'registrer en refusjon: gå til beløpet'],
    ['n', 'legg ved en kreditnota: gå til søket'],
    ['?', 'vis eller skjul disse hurtigtastene'],
  ],
};
