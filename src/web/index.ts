import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps.js';
import { errors } from '../http/errors.js';
import { serveAsset } from './assets.js';
import { renderFailure, webHandler, type WebRoute } from './page.js';
import { mountSessionRoutes } from './pages/auth.js';
import { webRoutes } from './routes.js';
import { sessionOf } from './session.js';

// The web application under /app (docs/web.md): assets, session routes, then every page and
// action of src/web/routes.ts. Anything else under /app is the application's 404 page.

export function webApplication(deps: AppDeps, routes: WebRoute[] = webRoutes): Middleware {
  const router = new Router();
  mountSessionRoutes(router, deps);
  for (const route of routes) router[route.method](`/app${route.path}`, webHandler(deps, route));
  const dispatch = router.routes();
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== '/app' && !ctx.path.startsWith('/app/')) return next() as Promise<void>;
    if (serveAsset(ctx)) return;
    await dispatch(ctx as never, async () => {
      ctx.state.routePattern = '/app/*';
      await renderFailure(ctx, deps, errors.notFound('page'), await sessionOf(ctx, deps).catch(() => null));
    });
  };
}
