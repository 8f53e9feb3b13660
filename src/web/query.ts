// A GET form sends every field, empty ones too; the API refuses an empty filter value. These keep
// the named fields that have a value, as the API's query (strings, as a query string gives them).
export function filledQuery(query: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of keys) {
    const value = query[key];
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string' && v !== '').join(',') : value;
    if (typeof text === 'string' && text.trim() !== '') kept[key] = text.trim();
  }
  return kept;
}

// The URL of the same list with some parameters changed (a next page, a cleared filter).
export function listUrl(
  path: string,
  query: Record<string, string>,
  changes: Record<string, string | null> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...changes }))
    if (value !== null && value !== '') params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

// ---------------------------------------------------------------------------------------------
// Sorting both ways and paging back. The API pages forward with opaque cursors; the application
// keeps the cursors of the pages before in the URL (`trail`, at most MAX_TRAIL), so Previous goes
// back one page and First to the start. `page` only numbers the rows shown ("51-100 of 1,234").

export type Direction = 'asc' | 'desc';

export interface SortOption {
  value: string;
  label: string;
  // The direction a click on the column starts with (newest, largest first for dates and amounts).
  first: Direction;
}

export interface ListState {
  sort: string;
  direction: Direction;
}

// The list's sort and direction as asked, else its default (the API's own default for the list).
export function sortState(
  query: Record<string, string>,
  options: readonly SortOption[],
  fallback: ListState,
): ListState {
  const option = options.find((o) => o.value === query.sort);
  if (!option)
    return {
      sort: fallback.sort,
      direction: query.direction === 'asc' || query.direction === 'desc' ? query.direction : fallback.direction,
    };
  return {
    sort: option.value,
    direction: query.direction === 'asc' || query.direction === 'desc' ? query.direction : option.first,
  };
}

export interface SortHeader {
  href: string;
  // aria-sort of the column's header: only the sorted column has one.
  ariaSort: 'ascending' | 'descending' | null;
  // What a click does, for screen readers and the tooltip, in words in the view
  // (`t.shell.sortAction`): the sort's name and the direction a click asks for.
  sortLabel: string;
  next: Direction;
}

// A column header's link: the sorted column toggles its direction, another starts with its own.
export function sortHeader(
  path: string,
  filters: Record<string, string>,
  state: ListState,
  option: SortOption,
): SortHeader {
  const sorted = state.sort === option.value;
  const next: Direction = sorted ? (state.direction === 'asc' ? 'desc' : 'asc') : option.first;
  const { cursor: _c, trail: _t, page: _p, ...kept } = filters;
  return {
    href: listUrl(path, kept, { sort: option.value, direction: next }),
    ariaSort: sorted ? (state.direction === 'asc' ? 'ascending' : 'descending') : null,
    sortLabel: option.label,
    next,
  };
}

const MAX_TRAIL = 20;
// Cursors are base64url with a dot; a comma never occurs in one.
const TRAIL_SEPARATOR = ',';
const FIRST_PAGE_MARK = '-';

export interface Pager {
  firstUrl: string | null;
  previousUrl: string | null;
  nextUrl: string | null;
  // 1-based row numbers of this page, when known.
  fromRow: number;
  toRow: number;
}

// `query`: the page's query (its cursor, trail and page number); `filters`: everything else that
// names the list (filters, sort, direction).
export function pager(
  path: string,
  filters: Record<string, string>,
  query: Record<string, unknown>,
  rowsShown: number,
  pageSize: number,
  nextCursor: string | null,
): Pager {
  const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? query.cursor : null;
  const trail =
    typeof query.trail === 'string' && query.trail !== '' ? query.trail.split(TRAIL_SEPARATOR).slice(-MAX_TRAIL) : [];
  const pageNumber = Math.max(
    1,
    Math.min(1_000_000, Number.parseInt(typeof query.page === 'string' ? query.page : '1', 10) || 1),
  );
  const { cursor: _c, trail: _t, page: _p, ...list } = filters;
  const at = (pageCursor: string | null, pageTrail: string[], number: number) =>
    pageCursor === null
      ? listUrl(path, list)
      : listUrl(path, list, {
          cursor: pageCursor,
          trail: pageTrail.length ? pageTrail.join(TRAIL_SEPARATOR) : null,
          page: String(number),
        });
  let previousUrl: string | null = null;
  if (cursor !== null) {
    const before = trail.at(-1);
    // Without a trail (it was cut, or the link came from elsewhere) Previous is the first page.
    previousUrl =
      before === undefined || before === FIRST_PAGE_MARK
        ? at(null, [], 1)
        : at(before, trail.slice(0, -1), pageNumber - 1);
  }
  const fromRow = rowsShown === 0 ? 0 : (pageNumber - 1) * pageSize + 1;
  return {
    firstUrl: cursor !== null ? at(null, [], 1) : null,
    previousUrl,
    nextUrl: nextCursor
      ? at(nextCursor, [...trail, cursor ?? FIRST_PAGE_MARK].slice(-MAX_TRAIL), pageNumber + 1)
      : null,
    fromRow,
    toRow: fromRow === 0 ? 0 : fromRow + rowsShown - 1,
  };
}

// Rows per page: `limit` in the URL (1-100), else 50.
export function pageSizeOf(query: Record<string, unknown>): number {
  const asked = Number.parseInt(String(Array.isArray(query.limit) ? query.limit[0] : (query.limit ?? '')), 10);
  return Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : 50;
}

// The page size in the URLs of a list, when it is not the default.
export const limitOf = (pageSize: number): Record<string, string> =>
  pageSize === 50 ? {} : { limit: String(pageSize) };
