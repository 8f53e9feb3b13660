import type { AppDeps } from '../deps.js';
import { Prisma } from '../db/client.js';
import { escapeLike } from '../http/sql-filters.js';
import { visibleAlertSql } from '../alerts/filters.js';
import { ANYWHERE_MIN_LENGTH, SEARCH_TYPES, type SearchQuery, type SearchResult, type SearchType } from './schemas.js';

// GET /v1/search in PostgreSQL alone (docs/overview-and-search.md). Each searchable text is read
// through the indexes of migration overview_and_search: a btree on lower(text) for exact and
// prefix matches, a GIN trigram index for matches anywhere, a GIN full-text index for long texts.
// Every statement ranks a bounded number of candidates; exact and prefix matches stop reading
// after them, whereas a trigram or full-text (GIN) search builds its bitmap of every match first,
// so a substring found in nearly every record still costs in proportion to the records.

type Deps = Pick<AppDeps, 'db'>;

// Candidates read per text and match kind before ranking: enough that the best are among them,
// few enough that ranking stays cheap however common the query is.
const CANDIDATES = 200;

interface NameField {
  kind: 'name';
  field: string;
  // SQL over the alias t; the same expression as in the migration's indexes.
  text: string;
}
interface LongTextField {
  kind: 'text';
  field: string;
  text: string;
}
interface Source {
  type: SearchType;
  table: string;
  // SQL over the alias t: the organization's records a user sees.
  scope: (organizationId: string) => Prisma.Sql;
  title: string;
  path: string;
  fields: (NameField | LongTextField)[];
}

const ofOrganization = (organizationId: string) => Prisma.sql`t.organization_id = ${organizationId}::uuid`;

const SOURCES: Record<SearchType, Source> = {
  invoice: {
    type: 'invoice',
    table: 'invoices',
    scope: (org) => Prisma.sql`${ofOrganization(org)} AND t.deleted_at IS NULL`,
    title: `concat_ws(' · ', coalesce(t.invoice_number, '(no number)'), t.supplier_party->>'name')`,
    path: '/v1/invoices',
    fields: [
      { kind: 'name', field: 'invoice_number', text: 't.invoice_number' },
      { kind: 'name', field: 'supplier_name', text: `(t.supplier_party->>'name')` },
    ],
  },
  agreement: {
    type: 'agreement',
    table: 'agreements',
    scope: ofOrganization,
    title: `coalesce(t.title, '(untitled agreement)')`,
    path: '/v1/agreements',
    fields: [
      { kind: 'name', field: 'title', text: 't.title' },
      { kind: 'text', field: 'instructions', text: `coalesce(t.instructions, '')` },
    ],
  },
  alert: {
    type: 'alert',
    table: 'alerts',
    // Set-aside alerts (match ended, invoice deleted) are out of every list: out of search too.
    scope: (org) => Prisma.sql`${ofOrganization(org)} AND ${Prisma.raw(visibleAlertSql('t'))}`,
    title: 't.title',
    path: '/v1/alerts',
    fields: [
      { kind: 'name', field: 'title', text: 't.title' },
      { kind: 'text', field: 'explanation', text: 't.explanation' },
    ],
  },
  topic: {
    type: 'topic',
    table: 'alert_topics',
    scope: ofOrganization,
    title: 't.title',
    path: '/v1/alert-topics',
    fields: [{ kind: 'name', field: 'title', text: 't.title' }],
  },
  claim: {
    type: 'claim',
    table: 'claims',
    scope: ofOrganization,
    title: `t.reference || ' · ' || t.title`,
    path: '/v1/claims',
    fields: [
      { kind: 'name', field: 'reference', text: 't.reference' },
      { kind: 'name', field: 'title', text: 't.title' },
    ],
  },
};

interface Row {
  id: string;
  title: string;
  matched_text: string;
  match: SearchResult['match'];
  score: number;
}

// Exact (1), then prefix (0.75 to 0.99, shorter texts first), then anywhere (0.2 to 0.7, by
// trigram word similarity). A query under 3 characters only takes the first two.
//
// Exact and prefix candidates are read in index order (text_pattern_ops, hence USING ~<~), so the
// scan stops after CANDIDATES rows: without the order PostgreSQL chose a bitmap scan, which reads
// every match first (100,000 index entries for the prefix "in"). Matches anywhere come from the
// trigram index, and only when exact and prefix matches of this text are fewer than the limit:
// otherwise every one of them scores above any match anywhere, so none could make the results.
// Each candidate carries its title and text from the scan that found it: fetching the rows again
// by id cost a random read per candidate, most of the statement's time.
function nameSql(source: Source, field: NameField, organizationId: string, query: string, limit: number): Prisma.Sql {
  const text = Prisma.raw(field.text);
  const lowered = Prisma.sql`lower(${text})`;
  const table = Prisma.raw(source.table);
  const scope = source.scope(organizationId);
  const escaped = escapeLike(query);
  const prefix = Prisma.sql`lower(${escaped}) || '%'`;
  const candidate = Prisma.sql`SELECT t.id, ${Prisma.raw(source.title)} AS title, ${text} AS matched_text FROM ${table} t WHERE ${scope}`;
  const inIndexOrder = Prisma.sql`ORDER BY ${lowered} USING ~<~ LIMIT ${CANDIDATES}`;
  const anywhere =
    query.length >= ANYWHERE_MIN_LENGTH
      ? Prisma.sql`UNION ALL (${candidate} AND (SELECT count(DISTINCT id) FROM named) < ${limit} AND ${lowered} LIKE '%' || lower(${escaped}) || '%' LIMIT ${CANDIDATES})`
      : Prisma.empty;
  const found = Prisma.raw('lower(f.matched_text)');
  return Prisma.sql`
    WITH named AS (
      (${candidate} AND ${lowered} = lower(${query}) ${inIndexOrder})
      UNION ALL (${candidate} AND ${lowered} LIKE ${prefix} ${inIndexOrder})
    ), found AS (
      SELECT * FROM named
      ${anywhere}
    ), scored AS (
      SELECT DISTINCT ON (f.id) f.id::text AS id, f.title, f.matched_text,
             CASE WHEN ${found} = lower(${query}) THEN 'exact' WHEN ${found} LIKE ${prefix} THEN 'prefix' ELSE 'anywhere' END AS match,
             (CASE WHEN ${found} = lower(${query}) THEN 1.0
                   WHEN ${found} LIKE ${prefix} THEN 0.75 + 0.24 * length(${query})::numeric / greatest(length(f.matched_text), 1)
                   ELSE 0.2 + 0.5 * word_similarity(lower(${query}), ${found}) END)::float8 AS score
        FROM found f ORDER BY f.id)
    SELECT * FROM scored ORDER BY score DESC, length(matched_text), matched_text LIMIT ${limit}`;
}

// Words of a long text (instructions, explanations), ranked by ts_rank below every name match.
function textSql(
  source: Source,
  field: LongTextField,
  organizationId: string,
  query: string,
  limit: number,
): Prisma.Sql {
  const vector = Prisma.sql`to_tsvector('simple', ${Prisma.raw(field.text)})`;
  const words = Prisma.sql`plainto_tsquery('simple', ${query})`;
  const table = Prisma.raw(source.table);
  return Prisma.sql`
    WITH candidates AS (
      SELECT t.id FROM ${table} t WHERE ${source.scope(organizationId)} AND ${vector} @@ ${words} LIMIT ${CANDIDATES}
    ), ranked AS (
      SELECT t.id, ts_rank(${vector}, ${words}) AS rank FROM ${table} t JOIN candidates c ON c.id = t.id ORDER BY rank DESC, t.id LIMIT ${limit}
    )
    SELECT t.id::text AS id, ${Prisma.raw(source.title)} AS title,
           ts_headline('simple', ${Prisma.raw(field.text)}, ${words}, 'MaxFragments=1, MaxWords=20, MinWords=8, StartSel="", StopSel=""') AS matched_text,
           'text' AS match, (0.1 + 0.09 * least(r.rank, 1))::float8 AS score
      FROM ranked r JOIN ${table} t ON t.id = r.id`;
}

const round = (score: number) => Math.round(score * 10_000) / 10_000;

// One result per record (its best-scoring text), best first; ties go to the shorter match.
function bestFirst(results: SearchResult[]): SearchResult[] {
  const best = new Map<string, SearchResult>();
  for (const result of results) {
    const key = `${result.type}:${result.id}`;
    const seen = best.get(key);
    if (!seen || result.score > seen.score) best.set(key, result);
  }
  return [...best.values()].sort(
    (a, b) =>
      b.score - a.score ||
      a.matched_text.length - b.matched_text.length ||
      a.title.localeCompare(b.title) ||
      a.id.localeCompare(b.id),
  );
}

// A result's place in the order (pagination.ts pageOfRanked, descending): best first, then the
// shorter match.
export const searchRank = (result: SearchResult) => [
  result.score,
  -result.matched_text.length,
  result.title,
  `${result.type}:${result.id}`,
];

// How deep the ranking reads for a page after the first: the results after a cursor are among the
// best this many of each text (every text reads at most CANDIDATES a kind anyway).
const DEEPEST = 1001;

// The best `depth` matches of each text, merged best first (the route pages them).
export const SEARCH_DEPTH_AFTER_CURSOR = DEEPEST;

export async function search(
  deps: Deps,
  organizationId: string,
  input: Pick<SearchQuery, 'query' | 'types'>,
  depth: number,
): Promise<SearchResult[]> {
  const limit = Math.min(depth, DEEPEST);
  const types = input.types ? SEARCH_TYPES.filter((type) => input.types!.includes(type)) : [...SEARCH_TYPES];
  const run = (sql: Prisma.Sql) => deps.db.$queryRaw<Row[]>(sql);
  const statements: Promise<SearchResult[]>[] = [];
  for (const type of types) {
    const source = SOURCES[type];
    for (const field of source.fields) {
      if (field.kind === 'text' && input.query.length < ANYWHERE_MIN_LENGTH) continue;
      const sql =
        field.kind === 'name'
          ? nameSql(source, field, organizationId, input.query, limit)
          : textSql(source, field, organizationId, input.query, limit);
      statements.push(
        run(sql).then((rows) =>
          rows.map((row) => ({
            type,
            id: row.id,
            title: row.title,
            matched_field: field.field,
            matched_text: row.matched_text,
            match: row.match,
            score: round(row.score),
            url: `${source.path}/${row.id}`,
          })),
        ),
      );
    }
  }
  return bestFirst((await Promise.all(statements)).flat());
}
