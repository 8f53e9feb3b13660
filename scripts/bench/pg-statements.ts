// BENCH_PG_STATEMENTS=1: where a measured step spends PostgreSQL's time, statement by statement.
// The stack's embedded PostgreSQL preloads pg_stat_statements (it ships with the binaries), and
// the benchmark prints the step's statements by planning plus execution time. Execution time
// includes waiting for locks, and statements run by triggers are listed on their own as well as
// inside the statement that fired them.
import type { Db } from '../../src/db/client.js';

const pgStatementsWanted = Boolean(process.env.BENCH_PG_STATEMENTS);

// Before the stack starts: the flags the test stack starts its embedded PostgreSQL with.
export function preloadPgStatements(): void {
  if (!pgStatementsWanted) return;
  process.env.EMBEDDED_POSTGRES_FLAGS =
    '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on -c pg_stat_statements.track=all';
}

export async function resetPgStatements(db: Db): Promise<void> {
  if (!pgStatementsWanted) return;
  await db.$executeRawUnsafe('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await db.$queryRawUnsafe('SELECT pg_stat_statements_reset()');
}

interface StatementRow {
  calls: number;
  plan: string;
  exec: string;
  slowest: string;
  rows: number;
  query: string;
}

const STATEMENTS_SHOWN = 25;

export async function printPgStatements(db: Db, title: string): Promise<void> {
  if (!pgStatementsWanted) return;
  const rows = await db.$queryRawUnsafe<StatementRow[]>(
    `SELECT calls::int, round(total_plan_time::numeric, 1)::text AS plan, round(total_exec_time::numeric, 1)::text AS exec,
            round(max_exec_time::numeric, 1)::text AS slowest, rows::int, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query
       FROM pg_stat_statements ORDER BY total_plan_time + total_exec_time DESC LIMIT ${STATEMENTS_SHOWN}`,
  );
  console.log(`\nPostgreSQL statements of ${title} (ms; execution includes lock waits):`);
  console.log('calls\tplan\texec\tslowest\trows\tstatement');
  for (const row of rows)
    console.log(`${row.calls}\t${row.plan}\t${row.exec}\t${row.slowest}\t${row.rows}\t${row.query}`);
}
