import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';

async function probe(name: string, check: () => Promise<unknown>, timeoutMs = 2000): Promise<[string, string]> {
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), timeoutMs)),
    ]);
    return [name, 'ok'];
  } catch (error) {
    return [name, `unavailable: ${(error as Error).message}`];
  }
}

export function healthz(ctx: Context): void {
  ctx.body = { status: 'ok' };
}

// Ready when every dependency answers: the database, Temporal and storage.
export async function readyz(deps: AppDeps, ctx: Context): Promise<void> {
  const checks = Object.fromEntries(
    await Promise.all([
      probe('database', () => deps.db.$queryRaw`SELECT 1`),
      probe('temporal', () => deps.temporal.connection.workflowService.getSystemInfo({})),
      probe('storage', () => deps.storage.ping()),
    ]),
  );
  const ready = Object.values(checks).every((status) => status === 'ok');
  ctx.status = ready ? 200 : 503;
  ctx.body = { status: ready ? 'ready' : 'not_ready', checks };
}
