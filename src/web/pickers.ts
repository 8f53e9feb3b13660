import { labelsOf } from './labels.js';
import type { WebInput } from './page.js';
import { requestTexts, type Texts } from './texts/index.js';

// Searchable pickers for the list filters (supplier, agreement) instead of a <select> of the first
// 200 names: a text field with a <datalist> that htmx fills from the API's own search as one types
// (GET /app/suggest/...), and that works without script too. The name typed (or picked) is resolved
// through the same search: its exact matches, else every supplier whose name contains it (at most
// MAX_PICKED, and the page says so), else nothing matches and the list is empty.

type Caller = WebInput<unknown, unknown>['call'];

const MAX_PICKED = 100;
const SUGGESTIONS = 20;
const MAX_TEXT = 200;

export interface Picked {
  // The text shown in the field (the name typed, or the names of the ids in the URL).
  text: string;
  // True when the text names nothing: the list is empty without asking the API.
  none: boolean;
  // Said under the filters when the text was not one exact name.
  note: string | null;
}

export function firstText(value: unknown): string {
  const text: unknown = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' ? text.trim().slice(0, MAX_TEXT) : '';
}

export function withoutKey<T extends Record<string, string>>(record: T, key: string): Record<string, string> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

// A picker's list: the API's list operation read as ids and names, and the word for them
// (`t.shell.picker[word]`).
interface Kind {
  search: (call: Caller, query: Record<string, string>) => Promise<{ data: Found[]; next_cursor: string | null }>;
  word: 'supplier' | 'agreement';
}

// One found record: its id and the name shown.
interface Found {
  id: string;
  name: string;
}

const SUPPLIER: Kind = {
  search: async (call, query) => {
    const page = await call('listSuppliers', { query });
    return { data: page.data.map((row) => ({ id: row.id, name: row.name })), next_cursor: page.next_cursor };
  },
  word: 'supplier',
};
const AGREEMENT: Kind = {
  search: async (call, query) => {
    const page = await call('listAgreements', { query });
    return { data: page.data.map((row) => ({ id: row.id, name: row.title ?? '' })), next_cursor: page.next_cursor };
  },
  word: 'agreement',
};

// Resolves the picker's text into `query[idsKey]` (the API's filter); keeps ids given in the URL.
async function picked(
  kind: Kind,
  input: Pick<WebInput<unknown, unknown>, 'call' | 'deps' | 'credential'>,
  t: Texts['shell']['picker'],
  text: string,
  query: Record<string, string>,
  idsKey: string,
): Promise<Picked> {
  const word = t[kind.word];
  if (text === '') {
    const ids = query[idsKey]?.split(',') ?? [];
    if (ids.length === 0) return { text: '', none: false, note: null };
    // Ids from a link: show their names in the field.
    const labels = await labelsOf(
      input.deps,
      input.credential.organizationId,
      kind === SUPPLIER ? { suppliers: ids } : { agreements: ids },
    );
    const names = ids
      .map((id) => (kind === SUPPLIER ? labels.suppliers : labels.agreements).get(id))
      .filter((name): name is string => Boolean(name));
    return {
      text: names.length === 1 ? names[0]! : '',
      none: false,
      note: names.length > 1 ? t.chosen(names.length, word.many) : null,
    };
  }
  const found = await kind.search(input.call, { search: text, limit: String(MAX_PICKED) });
  const exact = found.data.filter((row) => row.name.toLowerCase() === text.toLowerCase());
  const chosen = exact.length > 0 ? exact : found.data;
  if (chosen.length === 0) {
    delete query[idsKey];
    return { text, none: true, note: t.noneContains(word.one, text) };
  }
  query[idsKey] = chosen.map((row) => row.id).join(',');
  if (exact.length > 0) return { text, none: false, note: null };
  const more = found.next_cursor !== null;
  return {
    text,
    none: false,
    note: more
      ? t.firstContaining(chosen.length, word.many, text)
      : t.containing(chosen.length, chosen.length === 1 ? word.one : word.many, text),
  };
}

export function pickedSuppliers(
  input: Pick<WebInput<unknown, unknown>, 'call' | 'deps' | 'credential' | 'ctx'>,
  query: Record<string, string>,
): Promise<Picked> {
  return picked(
    SUPPLIER,
    input,
    requestTexts(input.ctx).shell.picker,
    firstText(input.ctx.query.supplier),
    query,
    'supplier_ids',
  );
}

export function pickedAgreements(
  input: Pick<WebInput<unknown, unknown>, 'call' | 'deps' | 'credential' | 'ctx'>,
  query: Record<string, string>,
): Promise<Picked> {
  return picked(
    AGREEMENT,
    input,
    requestTexts(input.ctx).shell.picker,
    firstText(input.ctx.query.agreement),
    query,
    'agreement_ids',
  );
}

async function suggestions(kind: Kind, call: Caller, text: string): Promise<string[]> {
  const page = await kind.search(call, { limit: String(SUGGESTIONS), ...(text ? { search: text } : {}) });
  return [...new Set(page.data.map((row) => row.name).filter((name) => name !== ''))];
}

export const supplierSuggestions = (call: Caller, text: string) => suggestions(SUPPLIER, call, text);
export const agreementSuggestions = (call: Caller, text: string) => suggestions(AGREEMENT, call, text);
