import type { Context, Middleware, Next } from 'koa';
import { koaBody } from 'koa-body';
import { ApiError } from './errors.js';
import type { RouteDefinition } from './route.js';

// Request body limits: 2 MiB for every request (the spec's limit) unless its route declares its
// own `maxBodyBytes`. The guard refuses a declared Content-Length over the limit before a byte
// is read; the parser's own limit (the same number) covers chunked bodies.

export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;

const describe = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);
const tooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `The request body is larger than the ${describe(limit)} limit.`);

// The limit of the route a request goes to, matched segment by segment ({param} matches any one
// segment): no regular expression, linear in the path's length.
export function bodyLimitOf(routes: RouteDefinition[]): (method: string, path: string) => number {
  const declared = routes
    .filter((route) => route.maxBodyBytes !== undefined)
    .map((route) => ({
      method: route.method.toUpperCase(),
      segments: route.path.split('/'),
      limit: route.maxBodyBytes!,
    }));
  return (method, path) => {
    const parts = path.split('/');
    const match = declared.find(
      (route) =>
        route.method === method &&
        route.segments.length === parts.length &&
        route.segments.every((segment, i) => segment.startsWith('{') || segment === parts[i]),
    );
    return match?.limit ?? MAX_JSON_BODY_BYTES;
  };
}

export function bodySizeGuard(limitOf: (method: string, path: string) => number): Middleware {
  return async (ctx: Context, next: Next) => {
    const limit = limitOf(ctx.method, ctx.path);
    ctx.state.bodyLimit = limit;
    const length = Number(ctx.get('Content-Length') || 0);
    if (length > limit && !ctx.is('multipart')) throw tooLarge(limit);
    await next();
  };
}

// One koa-body per limit in use (two in practice), chosen by the limit the guard found.
export function bodyParser(options: (limit: number) => Parameters<typeof koaBody>[0]): Middleware {
  const parsers = new Map<number, Middleware>();
  return async (ctx: Context, next: Next) => {
    const limit = (ctx.state.bodyLimit as number | undefined) ?? MAX_JSON_BODY_BYTES;
    let parser = parsers.get(limit);
    if (!parser) {
      parser = koaBody(options(limit));
      parsers.set(limit, parser);
    }
    let parsed = false;
    try {
      await parser(ctx, async () => {
        parsed = true;
      });
    } catch (error) {
      if ((error as { status?: number }).status === 413) throw tooLarge(limit);
      throw error;
    }
    if (parsed) await next();
  };
}
