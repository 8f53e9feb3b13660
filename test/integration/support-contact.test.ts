import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { closeAppDeps, createAppDeps } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { testRunTypes } from '../../src/runs/test-run-types.js';
import { MAX_SUPPORT_BODY_BYTES } from '../../src/support/schemas.js';
import { call, expectError } from '../support/api.js';
import { attachmentOf, startMailReceiver, type MailReceiver } from '../support/mail-receiver.js';
import { startOwnApi, type OwnApi } from '../support/own-api.js';
import { createTenant, keyFor, testDb } from '../support/tenants.js';

// POST /v1/support/contact (docs/activity.md): stored with its attachments in storage, mailed to
// the support address when SMTP is configured, and the one route that takes up to 32 MiB.

const MiB = 1024 * 1024;

// A JSON body of exactly `size` bytes: a message padded to fit.
function bodyOfSize(size: number): string {
  const empty = JSON.stringify({ subject: 'Big', message: '' });
  return JSON.stringify({ subject: 'Big', message: 'x'.repeat(size - empty.length) });
}

describe('support contact', () => {
  it('takes a body of exactly 32 MiB and refuses one byte more (413 payload_too_large); other routes keep 2 MiB', async () => {
    const tenant = await createTenant();
    const headers = { 'Content-Type': 'application/json' };
    // The message itself is long (the limit is on the body); 32 MiB exactly is accepted.
    const atLimit = await tenant.call('/v1/support/contact', {
      method: 'POST',
      rawBody: bodyOfSize(MAX_SUPPORT_BODY_BYTES),
      headers,
    });
    // A 32 MiB message is over the message's own length rule: a validation error, not a size one.
    expectError(atLimit, 400, 'validation_error');
    const over = await tenant.call('/v1/support/contact', {
      method: 'POST',
      rawBody: bodyOfSize(MAX_SUPPORT_BODY_BYTES + 1),
      headers,
    });
    expectError(over, 413, 'payload_too_large');
    expect(over.body.error.message).toContain('32 MiB');
    expectError(
      await tenant.call('/v1/comments', { method: 'POST', rawBody: bodyOfSize(2 * MiB + 1), headers }),
      413,
      'payload_too_large',
    );
  });

  it('stores a request of 32 MiB with its attachment in storage (202 with the request id); mail not configured', async () => {
    const tenant = await createTenant();
    const envelope = JSON.stringify({
      subject: 'Screenshot',
      message: 'See attached',
      attachments: [{ file_name: 'big.bin', mime_type: 'application/octet-stream', content_base64: '' }],
    });
    // Base64 of n bytes is 4*ceil(n/3) characters: fill the body to exactly 32 MiB.
    const room = MAX_SUPPORT_BODY_BYTES - envelope.length;
    const bytes = randomBytes(Math.floor(room / 4) * 3);
    const content = bytes.toString('base64');
    const raw = JSON.stringify({
      subject: 'Screenshot',
      message: 'See attached'.padEnd(12 + (room - content.length), ' '),
      attachments: [{ file_name: 'big.bin', mime_type: 'application/octet-stream', content_base64: content }],
    });
    expect(Buffer.byteLength(raw)).toBe(MAX_SUPPORT_BODY_BYTES);
    const response = await tenant.call('/v1/support/contact', {
      method: 'POST',
      rawBody: raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body).toMatchObject({
      mail_status: 'not_configured',
      attachments: [{ file_name: 'big.bin', mime_type: 'application/octet-stream', file_size: bytes.length }],
    });
    const stored = await testDb().supportRequest.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(stored).toMatchObject({
      organizationId: tenant.organizationId,
      userId: tenant.userId,
      apiKeyId: tenant.apiKeyId,
      subject: 'Screenshot',
      mailStatus: 'not_configured',
    });
    const [attachment] = stored.attachments as { storage_key: string }[];
    // The bytes in storage are the ones sent.
    const config = loadConfig({ ...process.env, ...inject('stackEnv') });
    const deps = await createAppDeps(config, testRunTypes);
    try {
      expect((await deps.storage.read(attachment!.storage_key, 40 * MiB)).equals(bytes)).toBe(true);
    } finally {
      await closeAppDeps(deps);
    }
  });

  it('refuses what it cannot read and changes nothing; needs an API key of the organization', async () => {
    const tenant = await createTenant();
    const before = await testDb().supportRequest.count({ where: { organizationId: tenant.organizationId } });
    expectError(
      await tenant.call('/v1/support/contact', {
        method: 'POST',
        body: {
          subject: 'x',
          message: 'y',
          attachments: [{ file_name: 'a.txt', mime_type: 'text/plain', content_base64: 'not base64!' }],
        },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/support/contact', {
        method: 'POST',
        body: {
          subject: 'x',
          message: 'y',
          attachments: [{ file_name: '../a.txt', mime_type: 'text/plain', content_base64: 'YQ==' }],
        },
      }),
      400,
      'validation_error',
    );
    expectError(
      await tenant.call('/v1/support/contact', { method: 'POST', body: { subject: '', message: 'y' } }),
      400,
      'validation_error',
    );
    expectError(
      await call('/v1/support/contact', { method: 'POST', body: { subject: 'x', message: 'y' } }),
      401,
      'invalid_token',
    );
    expect(await testDb().supportRequest.count({ where: { organizationId: tenant.organizationId } })).toBe(before);
    // Any member may write to support: a Read key is enough.
    const readKey = await keyFor(tenant, 'read');
    expect(
      (
        await call('/v1/support/contact', {
          method: 'POST',
          token: readKey,
          organizationId: tenant.organizationId,
          body: { subject: 'Help', message: 'Please' },
        })
      ).status,
    ).toBe(202);
  });

  describe('with SMTP configured', () => {
    let receiver: MailReceiver;
    let api: OwnApi;

    beforeAll(async () => {
      receiver = await startMailReceiver();
      // The same API with mail configured, against the same stack.
      api = await startOwnApi({
        SMTP_URL: receiver.url,
        SMTP_FROM: 'service@example.test',
        SUPPORT_EMAIL: 'support@example.test',
      });
    });
    afterAll(async () => {
      await api.stop();
      await receiver.stop();
    });

    it('sends the message with its attachments to the support address', async () => {
      const tenant = await createTenant();
      const png = randomBytes(3000);
      const response = await fetch(`${api.url}/v1/support/contact`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${tenant.apiKey}`,
          'X-Organization-Id': tenant.organizationId,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          subject: 'Import stuck',
          message: 'Import 42 is still running.',
          attachments: [{ file_name: 'screen.png', mime_type: 'image/png', content_base64: png.toString('base64') }],
        }),
      });
      const receipt = (await response.json()) as any;
      expect(response.status, JSON.stringify(receipt)).toBe(202);
      expect(receipt.mail_status).toBe('sent');
      expect(receiver.messages).toHaveLength(1);
      const [mail] = receiver.messages;
      expect(mail!.to).toEqual(['support@example.test']);
      expect(mail!.raw).toContain(`Subject: [Support ${receipt.id}] Import stuck`);
      expect(mail!.raw).toContain('Import 42 is still running.');
      expect(mail!.raw).toContain(tenant.organizationId);
      expect(attachmentOf(mail!.raw, 'screen.png')?.equals(png)).toBe(true);
      expect((await testDb().supportRequest.findUniqueOrThrow({ where: { id: receipt.id } })).mailStatus).toBe('sent');
    });
  });
});
