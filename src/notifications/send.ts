import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { memberOwnersOf } from './channels.js';
import {
  addressPolicyOf,
  DestinationRefused,
  destinationHost,
  guardedLookup,
  isBlockedAddress,
  staticDestinationProblem,
} from './address-policy.js';

// One attempt at one delivery. Delivered once: a delivered row is never sent again, and the
// webhook-id (the event id) and the e-mail Message-ID stay the same on every attempt, so a
// receiver that saw an attempt whose answer was lost can drop the repeat.

export class PermanentDeliveryFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryFailure';
  }
}

// A receiver that does not finish its answer by WEBHOOK_TIMEOUT_SECONDS after the attempt began
// (connecting, sending, and reading the whole answer; a trickle of bytes does not extend it).
export class DeliveryDeadlineExceeded extends Error {
  constructor(seconds: number) {
    super(`the receiver did not answer within ${seconds} s`);
    this.name = 'DeliveryDeadlineExceeded';
  }
}
// Only the start of a receiver's answer is kept, for the delivery log.
const MAX_ERROR_LENGTH = 300;

export async function attemptDelivery(db: Db, config: Config, deliveryId: string): Promise<'delivered' | 'skipped'> {
  const delivery = await db.notificationDelivery.findUnique({ where: { id: deliveryId }, include: { event: true } });
  if (!delivery || delivery.status !== 'pending') return 'skipped';
  const channel = await db.notificationChannel.findUnique({
    where: { id: delivery.channelId },
    include: { preference: { select: { userId: true, owner: true } } },
  });
  await db.notificationDelivery.update({ where: { id: deliveryId }, data: { attempts: { increment: 1 } } });
  const fail = async (message: string, statusCode: number | null, permanent: boolean): Promise<never> => {
    await db.notificationDelivery.update({
      where: { id: deliveryId },
      data: { lastError: message.slice(0, MAX_ERROR_LENGTH), lastStatusCode: statusCode },
    });
    throw permanent ? new PermanentDeliveryFailure(message) : new Error(message);
  };
  if (!channel) return fail('the channel was removed', null, true);
  if (
    channel.preference.owner === 'personal' &&
    !(
      channel.preference.userId &&
      (await memberOwnersOf(db, channel.organizationId, [channel.preference.userId])).size > 0
    )
  ) {
    return fail("the channel's owner is no longer a member of the organization", null, true);
  }
  const body = JSON.stringify(delivery.event.payload);
  try {
    if (channel.type === 'webhook') {
      if (!channel.url || !channel.secret) return await fail('the webhook has no URL or secret', null, true);
      const status = await postWebhook(config, channel.url, channel.secret, delivery.eventId, body);
      if (status < 200 || status >= 300) return await fail(`the receiver answered ${status}`, status, false);
    } else {
      const owner = channel.preference.userId
        ? await db.user.findUnique({ where: { id: channel.preference.userId }, select: { email: true } })
        : null;
      const to = channel.address ?? owner?.email;
      if (!to) return await fail('the e-mail channel has no address', null, true);
      await sendEmail(
        config,
        to,
        `${delivery.eventId}.${channel.id}`,
        delivery.event.payload as Record<string, unknown>,
      );
    }
  } catch (error) {
    if (
      error instanceof PermanentDeliveryFailure ||
      (error instanceof Error && error.message.startsWith('the receiver answered'))
    )
      throw error;
    if (error instanceof DestinationRefused) return fail(error.message, null, true);
    if (error instanceof DeliveryDeadlineExceeded) return fail(error.message, null, false);
    // Network errors are retried; the log shows their code only (ECONNREFUSED, ETIMEDOUT, ...), never
    // a library's text.
    const code = (error as { code?: unknown } | null)?.code;
    return fail(
      typeof code === 'string' && /^E[A-Z_]{1,30}$/.test(code) ? `delivery failed: ${code}` : 'delivery failed',
      null,
      false,
    );
  }
  await db.notificationDelivery.update({
    where: { id: deliveryId },
    data: { status: 'delivered', deliveredAt: new Date(), lastError: null },
  });
  return 'delivered';
}

export function signWebhook(secret: string, eventId: string, body: string, at = new Date()): Record<string, string> {
  const signature = new Webhook(secret).sign(eventId, at, body);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

// POST with the address checked at connection time (guardedLookup); redirects are not followed.
async function postWebhook(
  config: Config,
  rawUrl: string,
  secret: string,
  eventId: string,
  body: string,
): Promise<number> {
  const policy = addressPolicyOf(config);
  const problem = staticDestinationProblem(rawUrl, policy);
  if (problem) throw new DestinationRefused(problem);
  const url = new URL(rawUrl);
  const host = destinationHost(rawUrl);
  const open = policy.allowPrivate || policy.allowedHosts.has(host);
  if (isIP(host) && !open && isBlockedAddress(host))
    throw new DestinationRefused('the address is in a range that is not delivered to');
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'invoice-compliance-webhooks/1',
    ...signWebhook(secret, eventId, body),
  };
  const client = url.protocol === 'https:' ? https : http;
  const seconds = config.WEBHOOK_TIMEOUT_SECONDS;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(policy, host),
        timeout: seconds * 1000,
      },
      (response) => {
        response.resume();
        response.on('end', () => settle(() => resolve(response.statusCode ?? 0)));
        response.on('error', (error) => settle(() => reject(error)));
      },
    );
    // One deadline for the whole attempt, so a slow receiver cannot hold a worker's activity slot;
    // the socket's idle timeout alone would let a receiver trickling a byte now and then hold it.
    const deadline = setTimeout(() => {
      settle(() => reject(new DeliveryDeadlineExceeded(seconds)));
      request.destroy();
    }, seconds * 1000);
    request.on('timeout', () => {
      settle(() => reject(new DeliveryDeadlineExceeded(seconds)));
      request.destroy();
    });
    request.on('error', (error) => settle(() => reject(error)));
    request.end(body);
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function emailContent(payload: Record<string, unknown>): { subject: string; text: string; html: string } {
  if (payload.type === 'test') {
    const line = String(payload.message);
    return {
      subject: 'Test message from Invoice Compliance',
      text: `${line}\n\n${String(payload.url)}\n`,
      html: `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(String(payload.url))}">Notification settings</a></p>`,
    };
  }
  if (payload.type === 'agreement_expiring') {
    const agreement = payload.agreement as { title: string | null; expiration_date: string; url: string };
    const name = agreement.title ?? 'An agreement';
    const line = `${name} expires on ${agreement.expiration_date} (in ${String(payload.days_until_expiration)} days).`;
    return {
      subject: `Agreement expiring in ${String(payload.days_until_expiration)} days: ${name}`,
      text: `${line}\n\nOpen the agreement: ${agreement.url}\n`,
      html: `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(agreement.url)}">Open the agreement</a></p>`,
    };
  }
  const alerts =
    (payload.alerts as { title: string; impact_amount: string | null; currency_code: string | null; url: string }[]) ??
    [];
  const count = Number(payload.alert_count ?? alerts.length);
  const describe = (a: (typeof alerts)[number]) =>
    `${a.title}${a.impact_amount ? ` (${a.impact_amount} ${a.currency_code ?? ''})`.replace(/ \)$/, ')') : ''}`;
  return {
    subject: `${count} new alert${count === 1 ? '' : 's'}`,
    text: `A check found ${count} new alert${count === 1 ? '' : 's'}:\n\n${alerts.map((a) => `- ${describe(a)}: ${a.url}`).join('\n')}\n\nThe check: ${String(payload.url)}\n`,
    html: `<p>A check found ${count} new alert${count === 1 ? '' : 's'}:</p><ul>${alerts.map((a) => `<li><a href="${escapeHtml(a.url)}">${escapeHtml(describe(a))}</a></li>`).join('')}</ul><p><a href="${escapeHtml(String(payload.url))}">Open the check</a></p>`,
  };
}

async function sendEmail(
  config: Config,
  to: string,
  messageKey: string,
  payload: Record<string, unknown>,
): Promise<void> {
  if (!config.SMTP_URL) throw new PermanentDeliveryFailure('e-mail is not configured (SMTP_URL)');
  const transport = nodemailer.createTransport(config.SMTP_URL);
  try {
    await transport.sendMail({
      from: config.SMTP_FROM,
      to,
      messageId: `<${messageKey}@notifications.invoice-compliance>`,
      ...emailContent(payload),
    });
  } finally {
    transport.close();
  }
}
