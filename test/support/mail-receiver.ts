import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A local SMTP server that keeps what it receives, for tests of outgoing mail: a real SMTP
// conversation over TCP, no authentication, no TLS.
export interface MailReceiver {
  url: string;
  messages: { to: string[]; raw: string }[];
  stop(): Promise<void>;
}

export async function startMailReceiver(): Promise<MailReceiver> {
  const messages: MailReceiver['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: 64 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// The decoded bytes of the attachment with this file name in a received MIME message (nodemailer
// sends attachments base64-encoded), or null.
export function attachmentOf(raw: string, fileName: string): Buffer | null {
  const boundary = /boundary="?([^"\r\n;]+)"?/.exec(raw)?.[1];
  if (!boundary) return null;
  for (const part of raw.split(`--${boundary}`)) {
    if (!part.includes(`filename=${fileName}`) && !part.includes(`filename="${fileName}"`)) continue;
    const body = part.slice(part.indexOf('\r\n\r\n') + 4);
    return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  }
  return null;
}
