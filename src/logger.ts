import { pino, type Logger } from 'pino';

export type { Logger };

// JSON lines on stdout; every line of a request carries its request_id (see http/request-context.ts).
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}
