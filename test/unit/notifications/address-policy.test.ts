import { describe, expect, it } from 'vitest';
import { isBlockedAddress, staticDestinationProblem } from '../../../src/notifications/address-policy.js';
import { emailContent, signWebhook } from '../../../src/notifications/send.js';
import { Webhook } from 'standardwebhooks';

const strict = { allowPrivate: false, allowedHosts: new Set<string>() };

describe('webhook address policy', () => {
  it('refuses loopback, private, shared, link-local (metadata), multicast and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'not-an-ip',
    ]) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
  });

  it('refuses translation and tunnel prefixes that lead to IPv4 addresses, and the old site-local range', () => {
    for (const address of [
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
      '2002:808:808::1', // 6to4 of a public address: still a tunnel, refused whole
      'fec0::1',
      'feff:ffff::1', // site-local fec0::/10
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1:ffff::1', // local-use NAT64 64:ff9b:1::/48
      '64:ff9b::7f00:1', // well-known NAT64
      '192.88.99.1',
      '192.88.99.255', // 6to4 relay anycast
      '::ffff:192.88.99.1',
    ]) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
    // Just outside each range.
    for (const address of ['2003::1', '2001:4860::8888', 'fbff::1', '64:ff9b:2::1', '192.88.98.255', '192.88.100.1']) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
    expect(staticDestinationProblem('https://[2002:a9fe:a9fe::1]/latest', strict)).toMatch(/range/);
    expect(staticDestinationProblem('https://[fec0::1]/x', strict)).toMatch(/range/);
    expect(staticDestinationProblem('https://[64:ff9b:1::a9fe:a9fe]/x', strict)).toMatch(/range/);
    expect(staticDestinationProblem('https://192.88.99.1/x', strict)).toMatch(/range/);
  });

  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
  });

  it('judges URLs before resolving: scheme, credentials, local names, literal addresses', () => {
    expect(staticDestinationProblem('https://hooks.example.com/in', strict)).toBeNull();
    expect(staticDestinationProblem('http://hooks.example.com/in', strict)).toMatch(/https/);
    expect(staticDestinationProblem('https://user:pw@hooks.example.com/', strict)).toMatch(/credentials/);
    expect(staticDestinationProblem('https://localhost/x', strict)).toMatch(/local/);
    expect(staticDestinationProblem('https://metadata.google.internal/x', strict)).toMatch(/local/);
    expect(staticDestinationProblem('https://169.254.169.254/latest', strict)).toMatch(/range/);
    expect(staticDestinationProblem('https://[::1]/x', strict)).toMatch(/range/);
    expect(staticDestinationProblem('ftp://example.com/x', strict)).toMatch(/http/);
    // Allowed hosts (and WEBHOOK_ALLOW_PRIVATE) open the way, over http too.
    expect(
      staticDestinationProblem('http://127.0.0.1:8080/x', {
        allowPrivate: false,
        allowedHosts: new Set(['127.0.0.1']),
      }),
    ).toBeNull();
    expect(staticDestinationProblem('http://10.0.0.5/x', { allowPrivate: true, allowedHosts: new Set() })).toBeNull();
  });
});

describe('webhook signatures and e-mail content', () => {
  it('signs so that a Standard Webhooks receiver verifies, and only with the same secret', () => {
    const secret = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
    const body = JSON.stringify({ type: 'new_alert', id: 'e1' });
    const headers = signWebhook(secret, 'e1', body);
    expect(headers['webhook-id']).toBe('e1');
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: 'new_alert', id: 'e1' });
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 2).toString('base64')}`).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('writes plain text and HTML with links, escaping what came from records', () => {
    const mail = emailContent({
      type: 'new_alert',
      alert_count: 1,
      url: 'https://app/runs/1',
      alerts: [
        { title: 'Price <b>too</b> high', impact_amount: '350.00', currency_code: 'EUR', url: 'https://app/alerts/a1' },
      ],
    });
    expect(mail.subject).toBe('1 new alert');
    expect(mail.text).toContain('Price <b>too</b> high (350.00 EUR): https://app/alerts/a1');
    expect(mail.html).toContain('<a href="https://app/alerts/a1">Price &lt;b&gt;too&lt;/b&gt; high (350.00 EUR)</a>');
    const expiring = emailContent({
      type: 'agreement_expiring',
      days_until_expiration: 30,
      agreement: { title: 'Cleaning', expiration_date: '2027-01-01', url: 'https://app/agreements/g1' },
    });
    expect(expiring.subject).toBe('Agreement expiring in 30 days: Cleaning');
    expect(expiring.text).toContain('https://app/agreements/g1');
  });
});
