import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { listenApi } from '../../../src/http/server.js';

// A request that takes `ms` to answer, on a server of its own.
async function slowServer(ms: number) {
  const app = new Koa();
  app.use(async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    ctx.body = { done: true };
  });
  return listenApi(app, 0, '127.0.0.1');
}

describe('listenApi', () => {
  it('lets a request under way finish within the grace period of a close, then closes at once', async () => {
    const api = await slowServer(300);
    const response = fetch(api.url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const closed = api.close(10_000);
    const answered = await response;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ done: true });
    await closed;
    // Not kept open for the client's keep-alive, nor until the grace period ends.
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('ends a request still under way when the grace period is over', async () => {
    const api = await slowServer(5_000);
    const response = fetch(api.url).then(
      () => 'answered',
      () => 'cut off',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await api.close(100);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await response).toBe('cut off');
  });

  it('refuses new connections once closing', async () => {
    const api = await slowServer(0);
    expect((await fetch(api.url)).status).toBe(200);
    await api.close();
    await expect(fetch(api.url)).rejects.toThrow();
  });
});
