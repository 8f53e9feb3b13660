import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Prometheus metrics of the API process, served at GET /metrics on a port of their own
// (METRICS_PORT on METRICS_HOST, 127.0.0.1 by default), never on the public API port: they name
// every route and its traffic, which is nobody's business outside the operator's network.
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

const runsStarted = new Counter({
  name: 'workflow_runs_started_total',
  help: 'Workflow runs started through the API, by run type',
  labelNames: ['type'] as const,
  registers: [metricsRegistry],
});

const runsFinished = new Counter({
  name: 'workflow_runs_observed_finished_total',
  help: 'Workflow runs the API saw reach a terminal status, by run type and status',
  labelNames: ['type', 'status'] as const,
  registers: [metricsRegistry],
});

export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  requestDuration.observe({ method, route, status: String(status) }, seconds);
}

export function countRunStarted(type: string): void {
  runsStarted.inc({ type });
}

export function countRunFinished(type: string, status: string): void {
  runsFinished.inc({ type, status });
}

// The metrics listener's whole application: GET /metrics, and 404 for anything else.
export function metricsApp(): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/metrics') {
      ctx.type = metricsRegistry.contentType;
      ctx.body = await metricsRegistry.metrics();
      return;
    }
    ctx.status = 404;
    ctx.body = {
      error: { code: 'not_found', message: 'This port serves GET /metrics only.', request_id: randomUUID() },
    };
  });
  return app;
}
