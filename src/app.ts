import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './deps.js';
import { bodyLimitOf, bodyParser, bodySizeGuard, MAX_JSON_BODY_BYTES } from './http/body-limit.js';
import { errorMiddleware } from './http/errors.js';
import { healthz, readyz } from './http/health.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { requestContext } from './http/request-context.js';
import type { RouteDefinition } from './http/route.js';
import { mountRoutes } from './http/router.js';
import { allRoutes } from './routes.js';
import { webApplication } from './web/index.js';

export function createApp(deps: AppDeps, routes: RouteDefinition[] = allRoutes): Koa {
  // ctx.ip is the client address: the socket's, or with TRUST_PROXY the address our own proxies
  // saw (the last TRUST_PROXY_HOPS entries of X-Forwarded-For; earlier entries are the client's
  // own claims and never trusted).
  const app = new Koa({ proxy: deps.config.TRUST_PROXY, maxIpsCount: deps.config.TRUST_PROXY_HOPS });
  const router = new Router();
  const openApi = buildOpenApiDocument(routes, deps.config.PUBLIC_BASE_URL);

  router.get('/healthz', healthz);
  router.get('/readyz', (ctx) => readyz(deps, ctx));
  router.get('/v1/openapi.json', (ctx) => {
    ctx.state.routePattern = '/v1/openapi.json';
    ctx.body = openApi;
  });
  mountRoutes(router, deps, routes);

  // Failures outside the middleware (a client that drops its connection mid-request) go to the
  // log, not to stderr: every request's own failures are answered by errorMiddleware.
  app.on('error', (err: unknown) => deps.logger.debug({ err }, 'connection error'));
  app.use(requestContext(deps.logger));
  app.use(errorMiddleware);
  app.use(bodySizeGuard(bodyLimitOf(routes)));
  app.use(
    bodyParser((limit) => ({
      jsonLimit: limit,
      textLimit: MAX_JSON_BODY_BYTES,
      formLimit: MAX_JSON_BODY_BYTES,
      jsonStrict: true,
      // A form's repeated field (the alerts ticked for a bulk command, up to 1,000) stays a list:
      // past qs's default of 20 repeats it became an object, and the form was refused.
      queryString: { arrayLimit: 1000, parameterLimit: 10_000 },
      // Never multipart here: the Ingestion upload reads its own body after authentication
      // (src/http/multipart.ts), so no other path and no anonymous caller can fill the disk.
      multipart: false,
    })),
  );
  // The web application (/app, HTML); every other path is the API's.
  app.use(webApplication(deps));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
