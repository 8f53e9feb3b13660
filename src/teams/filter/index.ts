// The team filter, for every area that narrows records by a saved filter (teams, notification
// sources). docs/teams.md describes the definition and how it is evaluated.
//
//   teamFilterSchema                 zod schema for a definition (or null) in a request body
//   validateTeamFilter(raw)          {ok: true, filter} | {ok: false, errors: [{field, message}]}
//   compileFilter(filter, target, alias?)
//                                    Prisma.Sql boolean over one row of invoices, agreements,
//                                    alerts or claims (alias defaults to the table name)
export {
  teamFilterSchema,
  validateTeamFilter,
  type TeamFilter,
  type FilterIssue,
  type FilterValidation,
  type Condition,
  type Group,
} from './definition.js';
export {
  compileCoveredSet,
  compileFilter,
  DEFAULT_ALIAS,
  type CoveredSetOptions,
  type FilterTarget,
} from './compile.js';
