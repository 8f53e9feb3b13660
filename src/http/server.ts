import type { Server } from 'node:http';
import type Koa from 'koa';
import { answerClientErrors } from './client-errors.js';

export interface ListeningApi {
  server: Server;
  // http://host:port as the server listens (the port chosen when 0 was asked).
  url: string;
  // Stops accepting and ends idle connections at once; requests under way get `graceMs` to finish
  // before their connections are ended too. Resolves once the server is closed.
  close(graceMs?: number): Promise<void>;
}

// Every HTTP server of the API: the API process, the test stack and tests' own instances. One
// place, so the tests run the server production runs (a keep-alive setting once made only in the
// API process left the test stack closing sockets at Node's 5 s default, and a large upload there
// failed with ECONNRESET).
export async function listenApi(app: Koa, port: number, host: string): Promise<ListeningApi> {
  const server = app.listen(port, host);
  // Idle keep-alive connections stay open longer than clients and load balancers keep theirs
  // (undici 4 s, AWS ALB 60 s): a server that closes first races the client's next request on
  // the same socket, which then fails with "other side closed" or ECONNRESET. Headers must be
  // allowed a little longer still.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port: actualPort } = server.address() as { port: number };
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    close: async (graceMs = 0) => {
      // close() ends the idle connections once; one whose request finishes afterwards is ended as
      // soon as it is idle instead of waiting out its keep-alive (Node reads this per response).
      server.keepAliveTimeout = 1;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const cutOff = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(cutOff);
    },
  };
}
