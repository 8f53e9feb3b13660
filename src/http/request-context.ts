import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Credential } from '../auth/credential.js';
import type { Logger } from '../logger.js';
import { observeRequest } from './metrics.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/;

// Gives every request an id (a caller's X-Request-Id when it looks sane), a child logger carrying
// it, and one access-log line with organization, route, status and duration.
export function requestContext(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID_PATTERN.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
    ctx.state.requestId = requestId;
    ctx.state.logger = logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx.state.routePattern as string | undefined) ?? 'unmatched';
      observeRequest(ctx.method, route, ctx.status, seconds);
      (ctx.state.logger as Logger).info(
        {
          method: ctx.method,
          route,
          path: ctx.path,
          status: ctx.status,
          duration_ms: Math.round(seconds * 1000),
          organization_id: (ctx.state.credential as Credential | undefined)?.organizationId ?? null,
        },
        'request',
      );
    }
  };
}
