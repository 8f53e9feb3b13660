import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';

// Requests Node's HTTP parser refuses before Koa sees them (a request line and headers over
// Node's 16 KiB limit, a request that is not HTTP) still get the spec's error body, not Node's
// empty answer.
function answerOf(error: NodeJS.ErrnoException): { status: number; code: string; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      code: 'request_head_too_large',
      message: 'The URL and headers together are larger than 16 KiB; send fewer or shorter query parameters.',
    };
  }
  return { status: 400, code: 'validation_error', message: 'The request is not valid HTTP.' };
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, code, message } = answerOf(error);
    const body = JSON.stringify({ error: { code, message, request_id: `req_${randomUUID().replaceAll('-', '')}` } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
