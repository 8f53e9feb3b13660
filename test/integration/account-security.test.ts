import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, AdminError, createApiKey, createOrganization } from '../../src/admin/service.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { digestToken } from '../../src/auth/tokens.js';
import { expectError, type ApiResponse } from '../support/api.js';
import { startOwnApi, type OwnApi } from '../support/own-api.js';
import { createTenant, testDb } from '../support/tenants.js';

// Accounts and memberships attacked over HTTP (docs/security.md, "Take over an account or lock it
// out"; issue 25, items 1, 2, 3 and 6). Everything goes through the web application's forms and
// the API of an instance of the test's own, behind a "trusted proxy" (TRUST_PROXY) so that each
// test chooses its client addresses with X-Forwarded-For; failure budgets are the defaults (30 in
// five minutes).

const FAILURE_BUDGET = 30;
let api: OwnApi;

beforeAll(async () => {
  api = await startOwnApi({
    TRUST_PROXY: 'true',
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_AUTH_FAILURES: String(FAILURE_BUDGET),
    RATE_LIMIT_STORE: 'postgres',
  });
});
afterAll(async () => {
  await api?.stop();
});

const newAddress = () => `198.51.${randomInt(0, 255)}.${randomInt(1, 254)}`;
const newEmail = (what: string) => `${what}-${randomUUID().slice(0, 8)}@example.test`;
const PASSWORD = 'correct horse battery staple';

interface Page {
  status: number;
  headers: Headers;
  text: string;
}

// A browser of the web application: its cookies, and the client address its proxy reports.
class WebClient {
  private readonly cookies = new Map<string, string>();
  constructor(readonly address: string = newAddress()) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<Page> {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.address };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(path, api.url), {
      method,
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  // A form of the page at `pagePath`, posted with its CSRF token.
  async submit(pagePath: string, action: string, fields: Record<string, string>): Promise<Page> {
    const page = await this.request('GET', pagePath);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
    if (!csrf) throw new Error(`no form on ${pagePath} (${page.status})`);
    return this.request('POST', action, { _csrf: csrf, ...fields });
  }

  // A form of a signed-out visitor (double submit): the page sets the CSRF cookie, and the form
  // is posted with its value, even when the page shows no form (a link used up, a signed-in
  // browser sent on from the sign-in page).
  async submitAnonymous(pagePath: string, action: string, fields: Record<string, string>): Promise<Page> {
    await this.request('GET', pagePath);
    const csrf = this.cookies.get('ics_csrf');
    if (!csrf) throw new Error(`no CSRF cookie from ${pagePath}`);
    return this.request('POST', action, { _csrf: csrf, ...fields });
  }

  signIn(email: string, password: string): Promise<Page> {
    return this.submitAnonymous('/app/sign-in', '/app/sign-in', { email, password });
  }

  // The set-password / invitation form of a link.
  useLink(link: string, password: string, confirm = password): Promise<Page> {
    const url = new URL(link);
    return this.submitAnonymous(`/app/set-password${url.search}`, '/app/set-password', {
      token: url.searchParams.get('token')!,
      password,
      confirm,
    });
  }

  // An admin's invitation on the members page: the link shown once (or the refusal page).
  async invite(
    email: string,
    role: 'read' | 'write' | 'admin',
    name = '',
  ): Promise<{ page: Page; link: string | null }> {
    const page = await this.submit('/app/settings', '/app/settings/members', { email, role, name });
    const link = /data-testid="secret">([^<]+)</.exec(page.text)?.[1]?.trim() ?? null;
    return { page, link };
  }

  get session(): string | undefined {
    return this.cookies.get('ics_session');
  }

  // The API as this browser's session (the session bearer).
  apiCall(path: string, organizationId?: string): Promise<ApiResponse> {
    return bearerCall(this.session!, path, { organizationId, address: this.address });
  }
}

async function bearerCall(
  token: string,
  path: string,
  options: { organizationId?: string; address?: string; method?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    'X-Forwarded-For': options.address ?? newAddress(),
  };
  if (options.organizationId) headers['X-Organization-Id'] = options.organizationId;
  const response = await fetch(new URL(path, api.url), { method: options.method ?? 'GET', headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

// An organization with an admin who has a password, signed in from a browser of their own.
async function organizationWithAdmin(name: string) {
  const organization = await createOrganization(testDb(), { name: `${name} ${randomUUID().slice(0, 6)}` });
  const email = newEmail('admin');
  const user = await addMember(testDb(), {
    organizationId: organization.id,
    email,
    role: 'admin',
    name: `${name} admin`,
  });
  await testDb().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
  const browser = new WebClient();
  expect((await browser.signIn(email, PASSWORD)).status).toBe(303);
  return { organizationId: organization.id, userId: user.id, email, browser };
}

const membershipsOf = async (email: string) =>
  (await testDb().user.findUnique({ where: { email }, include: { memberships: true } }))?.memberships.map((m) => ({
    organizationId: m.organizationId,
    role: m.role,
  })) ?? [];

describe('no invitation of one organization reaches another', () => {
  it("refuses the reported takeover: A's admin uses A's link for an address B later made admin, and is not admin of B", async () => {
    const a = await organizationWithAdmin('Alpha');
    const b = await organizationWithAdmin('Bravo');
    const victim = newEmail('victim');
    const { link: linkOfA } = await a.browser.invite(victim, 'read');
    const { link: linkOfB, page: answerToB } = await b.browser.invite(victim, 'admin');
    expect(linkOfA).toMatch(/\/app\/set-password\?token=icsp_/);
    // B's admin is not told "they already have an account": B gets its own invitation, like any.
    expect(linkOfB).toMatch(/\/app\/set-password\?token=icsp_/);
    expect(answerToB.text).not.toMatch(/already have an account/i);
    // Nobody is a member of anything until the invited person uses a link.
    expect(await membershipsOf(victim)).toEqual([]);

    // A's admin opens A's link in a browser of their own, sets a password: that joins A only.
    const attacker = new WebClient();
    expect((await attacker.useLink(linkOfA!, 'the attacker chose this one')).status).toBe(303);
    expect(await membershipsOf(victim)).toEqual([{ organizationId: a.organizationId, role: 'read' }]);
    // Switching to B is refused, and B's data is out of reach with the session bearer.
    const switched = await attacker.submit('/app/invoices', '/app/organization', { organization_id: b.organizationId });
    expect(switched.status).toBe(404);
    expect((await attacker.apiCall('/v1/organizations')).body.data.map((o: { id: string }) => o.id)).toEqual([
      a.organizationId,
    ]);
    expectError(await attacker.apiCall('/v1/invoices', b.organizationId), 403, 'organization_not_accessible');

    // B's link now needs the account's own password: the address's real owner cannot be joined to
    // B by an account another organization's admin set up, and a wrong password changes nothing.
    const victimBrowser = new WebClient();
    const refused = await victimBrowser.useLink(linkOfB!, 'the victim would choose this');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('not the password of this account');
    expect(await membershipsOf(victim)).toEqual([{ organizationId: a.organizationId, role: 'read' }]);
  });

  it("ends A's link once the account joined B: it neither sets the password nor joins A", async () => {
    const a = await organizationWithAdmin('Alpha');
    const b = await organizationWithAdmin('Bravo');
    const person = newEmail('person');
    const { link: linkOfA } = await a.browser.invite(person, 'admin');
    const { link: linkOfB } = await b.browser.invite(person, 'admin');
    // The person uses B's link first and becomes admin of B with a password of their own.
    const owner = new WebClient();
    expect((await owner.useLink(linkOfB!, PASSWORD)).status).toBe(303);
    expect(await membershipsOf(person)).toEqual([{ organizationId: b.organizationId, role: 'admin' }]);

    // A's admin kept A's link: it cannot choose the password of an account B's member holds.
    const attacker = new WebClient();
    const refused = await attacker.useLink(linkOfA!, 'the attacker chose this one');
    expect(refused.status).toBe(400);
    expect(await membershipsOf(person)).toEqual([{ organizationId: b.organizationId, role: 'admin' }]);
    expect((await new WebClient().signIn(person, 'the attacker chose this one')).status).toBe(401);
    // The owner's session and password are untouched.
    expect((await owner.apiCall('/v1/me')).status).toBe(200);
    expect((await new WebClient().signIn(person, PASSWORD)).status).toBe(303);

    // The owner proves it is them with their own password, and joins A through A's link.
    expect((await owner.useLink(linkOfA!, PASSWORD)).status).toBe(303);
    expect(await membershipsOf(person)).toEqual(
      expect.arrayContaining([
        { organizationId: a.organizationId, role: 'admin' },
        { organizationId: b.organizationId, role: 'admin' },
      ]),
    );
    // The link works once.
    expect((await owner.useLink(linkOfA!, PASSWORD)).status).toBe(400);
  });

  it('never lets an admin choose the password of an existing account, and checks the issuer again when the link is used', async () => {
    const b = await organizationWithAdmin('Bravo');
    const member = await organizationWithAdmin('Member');
    // The admin of Member has a password and belongs to Member; Bravo's admin invites them.
    const { link } = await b.browser.invite(member.email, 'write');
    const attacker = new WebClient();
    expect((await attacker.useLink(link!, 'bravo admin guesses this')).status).toBe(400);
    expect((await member.browser.apiCall('/v1/me')).status).toBe(200);
    expect(await membershipsOf(member.email)).toEqual([{ organizationId: member.organizationId, role: 'admin' }]);

    // An invitation whose admin is no longer admin there is void.
    const second = newEmail('second-admin');
    const secondAdmin = await addMember(testDb(), { organizationId: b.organizationId, email: second, role: 'admin' });
    await testDb().user.update({ where: { id: secondAdmin.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
    const secondBrowser = new WebClient();
    expect((await secondBrowser.signIn(second, PASSWORD)).status).toBe(303);
    const invited = newEmail('invited');
    const { link: linkOfSecond } = await secondBrowser.invite(invited, 'admin');
    expect(
      (await b.browser.submit('/app/settings', `/app/settings/members/${secondAdmin.id}/role`, { role: 'read' }))
        .status,
    ).toBe(303);
    const stale = await new WebClient().useLink(linkOfSecond!, PASSWORD);
    expect(stale.status).toBe(400);
    expect(stale.text).toContain('not valid any more');
    expect(await membershipsOf(invited)).toEqual([]);
  });

  it('lets an admin withdraw an open invitation', async () => {
    const a = await organizationWithAdmin('Alpha');
    const invited = newEmail('withdrawn');
    const { link } = await a.browser.invite(invited, 'read');
    const settings = await a.browser.request('GET', '/app/settings');
    const id = new RegExp(
      `/app/settings/invitations/([0-9a-f-]{36})/revoke" class="inline-form" data-confirm="Withdraw the invitation of ${invited.replace('.', '\\.')}`,
    ).exec(settings.text)?.[1];
    expect(id).toBeDefined();
    expect((await a.browser.submit('/app/settings', `/app/settings/invitations/${id}/revoke`, {})).status).toBe(303);
    expect((await new WebClient().useLink(link!, PASSWORD)).status).toBe(400);
    expect(await membershipsOf(invited)).toEqual([]);
  });
});

describe('an invitation touches nothing beyond the organization', () => {
  it("leaves an existing account's name alone", async () => {
    const other = await organizationWithAdmin('Other');
    const a = await organizationWithAdmin('Alpha');
    const before = await testDb().user.findUniqueOrThrow({ where: { email: other.email } });
    await a.browser.invite(other.email, 'read', 'Renamed By Alpha');
    const { link } = await a.browser.invite(other.email, 'read', 'Renamed Again');
    // Even once the person joins with their own password.
    expect((await other.browser.useLink(link!, PASSWORD)).status).toBe(303);
    expect((await testDb().user.findUniqueOrThrow({ where: { email: other.email } })).name).toBe(before.name);
    // A new address gets the name the admin gave.
    const fresh = newEmail('fresh');
    await a.browser.invite(fresh, 'read', 'Fresh Person');
    expect((await testDb().user.findUniqueOrThrow({ where: { email: fresh } })).name).toBe('Fresh Person');
  });

  it('answers the same whether or not the address has an account elsewhere', async () => {
    const a = await organizationWithAdmin('Alpha');
    const elsewhere = await organizationWithAdmin('Elsewhere');
    const nobody = newEmail('nobody');
    const [known, unknown] = [
      await a.browser.invite(elsewhere.email, 'write'),
      await a.browser.invite(nobody, 'write'),
    ];
    const normalize = (text: string, email: string) =>
      text
        .replaceAll(email, 'EMAIL')
        .replace(/icsp_[\w-]+/g, 'TOKEN')
        .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/g, 'TIME')
        .replace(/nonce-[\w+/=]+/g, 'NONCE')
        .replace(/value="[\w-]{40,}"/g, 'value="CSRF"');
    expect(known.page.status).toBe(unknown.page.status);
    expect(normalize(known.page.text, elsewhere.email)).toBe(normalize(unknown.page.text, nobody));
    // The link's page says the same too.
    const stranger = new WebClient();
    const [knownLink, unknownLink] = [
      await stranger.request('GET', new URL(known.link!).pathname + new URL(known.link!).search),
      await stranger.request('GET', new URL(unknown.link!).pathname + new URL(unknown.link!).search),
    ];
    expect(knownLink.status).toBe(200);
    expect(normalize(knownLink.text, elsewhere.email)).toBe(normalize(unknownLink.text, nobody));
  });

  it('cannot demote the last admin: inviting a member is refused with 409 conflict and changes nothing', async () => {
    const a = await organizationWithAdmin('Alpha');
    const refused = await a.browser.invite(a.email, 'read');
    expect(refused.page.status).toBe(409);
    expect(refused.page.text).toContain('conflict');
    expect(refused.link).toBeNull();
    expect(await membershipsOf(a.email)).toEqual([{ organizationId: a.organizationId, role: 'admin' }]);
    // Nor through the role form (400 validation_error) or the operator's add-member.
    const demoted = await a.browser.submit('/app/settings', `/app/settings/members/${a.userId}/role`, { role: 'read' });
    expect(demoted.status).toBe(400);
    expect(demoted.text).toContain('at least one admin');
    await expect(
      addMember(testDb(), { organizationId: a.organizationId, email: a.email, role: 'read' }),
    ).rejects.toBeInstanceOf(AdminError);
    expect(await membershipsOf(a.email)).toEqual([{ organizationId: a.organizationId, role: 'admin' }]);
  });
});

const badApiKey = () => `icsk_${randomBytes(32).toString('base64url')}`;

describe('failed authentications do not lock out honest clients', () => {
  it('100 wrong passwords from one address: sign-in of that account there is limited, every valid key from the address still works', async () => {
    const victim = await organizationWithAdmin('Victim');
    const stranger = await createTenant();
    const shared = new WebClient();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i += 1) statuses.push((await shared.signIn(victim.email, `wrong password ${i}`)).status);
    expect(statuses.slice(0, FAILURE_BUDGET).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(FAILURE_BUDGET).every((s) => s === 429)).toBe(true);

    // Valid API keys from the same address, of the victim's organization and of another: 200.
    const victimKey = await createApiKey(testDb(), {
      userId: victim.userId,
      organizationId: victim.organizationId,
      level: 'read',
    });
    expect(
      (await bearerCall(victimKey.key, '/v1/me', { organizationId: victim.organizationId, address: shared.address }))
        .status,
    ).toBe(200);
    expect(
      (
        await bearerCall(stranger.apiKey, '/v1/invoices', {
          organizationId: stranger.organizationId,
          address: shared.address,
        })
      ).status,
    ).toBe(200);
    // Sign-ins spend no budget of the address's tokens: a bad token there is plain 401.
    expectError(await bearerCall(badApiKey(), '/v1/me', { address: shared.address }), 401, 'invalid_token');
    // Another person behind the same address signs in.
    const colleague = await organizationWithAdmin('Colleague');
    expect((await shared.signIn(colleague.email, PASSWORD)).status).toBe(303);
  });

  it('bad tokens from one address: past the budget they are 429, and a valid key from that address still passes', async () => {
    const tenant = await createTenant();
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => bearerCall(badApiKey(), '/v1/me', { address })),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(FAILURE_BUDGET);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(100 - FAILURE_BUDGET);
    // Refused from memory now: a guess writes no request-budget row of its own.
    const late = badApiKey();
    expectError(await bearerCall(late, '/v1/me', { address }), 429, 'rate_limit_exceeded');
    expect(await testDb().rateLimit.count({ where: { key: `requests:${digestToken(late)}` } })).toBe(0);
    expect((await bearerCall(tenant.apiKey, '/v1/me', { organizationId: tenant.organizationId, address })).status).toBe(
      200,
    );
    const session = await organizationWithAdmin('Session');
    expect((await bearerCall(session.browser.session!, '/v1/me', { address })).status).toBe(200);
  });

  it('nobody locks a chosen account out from elsewhere: the account signs in from its own address', async () => {
    const victim = await organizationWithAdmin('Victim');
    const attacker = new WebClient();
    for (let i = 0; i < FAILURE_BUDGET + 5; i += 1) await attacker.signIn(victim.email, `guess ${i}`);
    expect((await attacker.signIn(victim.email, PASSWORD)).status).toBe(429);
    expect((await new WebClient().signIn(victim.email, PASSWORD)).status).toBe(303);
  });

  it('a right password gives the attempts back: typos do not add up', async () => {
    const person = await organizationWithAdmin('Typos');
    const browser = new WebClient();
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < FAILURE_BUDGET - 1; i += 1)
        expect((await browser.signIn(person.email, `typo ${i}`)).status).toBe(401);
      expect((await browser.signIn(person.email, PASSWORD)).status).toBe(303);
    }
  });
});

describe('the failure budget is taken before the password is checked', () => {
  it('a burst of 100 parallel sign-ins gets at most the budget of real checks', async () => {
    const victim = await organizationWithAdmin('Burst');
    const burst = new WebClient();
    // Every request of the burst needs the form's CSRF cookie first.
    const page = await burst.request('GET', '/app/sign-in');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        burst.request('POST', '/app/sign-in', { _csrf: csrf, email: victim.email, password: `burst ${i}` }),
      ),
    );
    const checked = answers.filter((a) => a.status !== 429);
    expect(checked.every((a) => a.status === 401)).toBe(true);
    expect(checked.length).toBeLessThanOrEqual(FAILURE_BUDGET);
    expect(checked.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.headers.get('retry-after')) > 0)).toBe(true);
  });
});
