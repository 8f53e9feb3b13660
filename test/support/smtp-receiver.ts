import { SMTPServer } from 'smtp-server';

// A local SMTP server for tests: accepts every message (no TLS, no auth) and keeps it raw, so a
// test reads what a mail client would receive. Reusable by anything that sends e-mail.

export interface ReceivedMail {
  from: string | null;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  messages: ReceivedMail[];
  port: number;
  stop(): Promise<void>;
}

export async function startSmtpReceiver(port = 0): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Bounded: a test message is small.
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { messages, port: bound, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
