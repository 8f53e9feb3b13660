import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { MemberActor } from '../auth/actor.js';
import type { Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { SupportContactInput } from './schemas.js';

// A support request is stored first (with its attachments in storage), then mailed to the
// configured support address when SMTP is set up. A mail that fails leaves the request stored
// with mail_status failed: the member's message is never lost to a mail outage.

type Deps = Pick<AppDeps, 'db' | 'storage' | 'config' | 'logger'>;

// A type alias, not an interface: only an alias is assignable to Prisma's JSON input (it needs an index signature).
type StoredAttachment = {
  file_name: string;
  mime_type: string;
  file_size: number;
  storage_key: string;
};

export async function contactSupport(deps: Deps, actor: MemberActor, input: SupportContactInput) {
  const id = randomUUID();
  const files = input.attachments.map((attachment, index) => {
    const bytes = Buffer.from(attachment.content_base64, 'base64');
    // The index keeps two attachments of the same name apart; the name is not part of the key.
    return {
      bytes,
      stored: {
        file_name: attachment.file_name,
        mime_type: attachment.mime_type,
        file_size: bytes.length,
        storage_key: `support/${actor.organizationId}/${id}/${index}`,
      },
    };
  });
  for (const file of files) await deps.storage.put(file.stored.storage_key, file.bytes, file.stored.mime_type);
  const attachments: StoredAttachment[] = files.map((file) => file.stored);
  const request = await deps.db.supportRequest.create({
    data: {
      id,
      organizationId: actor.organizationId,
      userId: actor.userId,
      apiKeyId: actor.apiKeyId,
      subject: input.subject,
      message: input.message,
      attachments,
      mailStatus: 'not_configured',
    },
  });
  const mailStatus = await mailSupport(deps, request.id, actor, input, files);
  const saved =
    mailStatus === 'not_configured'
      ? request
      : await deps.db.supportRequest.update({
          where: { id },
          data: { mailStatus, mailedAt: mailStatus === 'sent' ? new Date() : null },
        });
  return {
    id: saved.id,
    mail_status: mailStatus,
    attachments: attachments.map(({ file_name, mime_type, file_size }) => ({ file_name, mime_type, file_size })),
    created_at: saved.createdAt.toISOString(),
  };
}

export function supportMailConfigured(config: Pick<Config, 'SMTP_URL' | 'SUPPORT_EMAIL'>): boolean {
  return Boolean(config.SMTP_URL && config.SUPPORT_EMAIL);
}

async function mailSupport(
  deps: Deps,
  requestId: string,
  actor: MemberActor,
  input: SupportContactInput,
  files: { bytes: Buffer; stored: StoredAttachment }[],
): Promise<'sent' | 'failed' | 'not_configured'> {
  if (!supportMailConfigured(deps.config)) return 'not_configured';
  const user = await deps.db.user.findUnique({ where: { id: actor.userId }, select: { email: true, name: true } });
  const transport = nodemailer.createTransport(deps.config.SMTP_URL, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as never);
  try {
    await transport.sendMail({
      from: deps.config.SMTP_FROM,
      to: deps.config.SUPPORT_EMAIL,
      replyTo: user?.email,
      subject: `[Support ${requestId}] ${input.subject}`,
      text: [
        input.message,
        '',
        '--',
        `Support request: ${requestId}`,
        `Organization: ${actor.organizationId}`,
        `From: ${user?.name ?? ''} <${user?.email ?? actor.userId}> ${actor.apiKeyId ? ` (API key ${actor.apiKeyId})` : ' (web application)'}`,
      ].join('\n'),
      attachments: files.map((file) => ({
        filename: file.stored.file_name,
        contentType: file.stored.mime_type,
        content: file.bytes,
      })),
    });
    return 'sent';
  } catch (error) {
    deps.logger.warn({ err: error, requestId }, 'support mail could not be sent');
    return 'failed';
  } finally {
    transport.close();
  }
}
