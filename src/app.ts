import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './deps.js';
import { bodyLimitOf, bodyParser, bodySizeGuard, MAX_JSON_BODY_BYTES } from './http/body-limit.js';
import { errorMiddleware } from './http/errors.js';
import { healthz, readyz } from './http/health.js';
import { metricsRegistry } from './http/metrics.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { requestContext } from './http/request-context.js';
import type { RouteDefinition } from './http/route.js';
import { mountRoutes } from './http/router.js';
import { MAX_INVOICE_FILE_BYTES } from './invoices/imports.js';
import { allRoutes } from './routes.js';

export function createApp(deps: AppDeps, routes: RouteDefinition[] = allRoutes): Koa {
  const app = new Koa({ proxy: true });
  const router = new Router();
  const openApi = buildOpenApiDocument(routes, deps.config.PUBLIC_BASE_URL);

  router.get('/healthz', healthz);
  router.get('/readyz', (ctx) => readyz(deps, ctx));
  router.get('/metrics', async (ctx) => {
    ctx.type = metricsRegistry.contentType;
    ctx.body = await metricsRegistry.metrics();
  });
  router.get('/v1/openapi.json', (ctx) => {
    ctx.state.routePattern = '/v1/openapi.json';
    ctx.body = openApi;
  });
  mountRoutes(router, deps, routes);

  app.use(requestContext(deps.logger));
  app.use(errorMiddleware);
  app.use(bodySizeGuard(bodyLimitOf(routes)));
  app.use(
    bodyParser((limit) => ({
      jsonLimit: limit,
      textLimit: MAX_JSON_BODY_BYTES,
      formLimit: MAX_JSON_BODY_BYTES,
      jsonStrict: true,
      // The Ingestion API's upload; files land in temporary files the handler reads and removes.
      multipart: true,
      formidable: { maxFileSize: MAX_INVOICE_FILE_BYTES, maxFiles: 51, maxTotalFileSize: 200 * 1024 * 1024, maxFields: 20, allowEmptyFiles: false },
    })),
  );
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
