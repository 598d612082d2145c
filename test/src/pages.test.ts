// The server-rendered pages (/signin, /account), driven with fetch as a browser would post their
// forms. Sign-in mail goes through a real SMTP server started here (smtp-mailbox.ts).
import { inviteMember } from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';
import { type Mailbox, startMailbox } from './smtp-mailbox.js';

let server: TestServer;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  // GitHub configured (its start is never followed here: no request leaves the machine).
  server = await startTestServer({
    LEMMA_SMTP_URL: mailbox.url, LEMMA_RATE_LIMIT_STRICT: '1000', LEMMA_OAUTH_GITHUB_CLIENT_ID: 'gh-client', LEMMA_OAUTH_GITHUB_CLIENT_SECRET: 'gh-secret',
  });
});

const FORM = 'application/x-www-form-urlencoded';

/** A page of the server (not the API: no contract check), never following redirects. */
function get(path: string, cookie?: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

/** Posts a form as a page of this site would (its Origin), unless told otherwise. */
function post(path: string, fields: Record<string, string>, opts: { cookie?: string; headers?: Record<string, string>; sameSite?: boolean } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': FORM, ...(opts.sameSite === false ? {} : { origin: server.url }), ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  return fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams(fields).toString() });
}

const csrfOf = (html: string) => /name="csrf" value="([0-9a-f]+)"/.exec(html)?.[1] ?? '';
const newKeyOf = (html: string) => /id="new-key"[^>]*value="(lemma_pk_[0-9a-f]{32})"/.exec(html)?.[1];

function expectPageHeaders(res: Response): void {
  expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*form-action 'self'.*frame-ancestors 'none'/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** Signs in through the pages: POST /signin, the mail's link, the cookie it sets. */
async function signIn(email: string): Promise<string> {
  const after = mailbox.messages.length;
  const asked = await post('/signin', { email });
  expect(asked.status).toBe(200);
  const mail = await mailbox.waitFor(email, { after });
  const res = await fetch(mailbox.linkIn(mail), { redirect: 'manual' });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/account');
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function account(cookie: string): Promise<{ html: string; csrf: string }> {
  const res = await get('/account', cookie);
  expect(res.status).toBe(200);
  const html = await res.text();
  return { html, csrf: csrfOf(html) };
}

describe(`the sign-in page [${dialect}]`, () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await server.newTenant('pages');
  });

  it('renders an accessible form for the magic link, SSO, and a link for each configured OAuth provider only', async () => {
    const res = await get('/signin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<title>Sign in · Lemma</title>');
    expect(html).toContain('<form method="post" action="/signin">');
    expect(html).toContain('<label for="email">Email address</label>');
    expect(html).toMatch(/<input id="email" name="email" type="email" autocomplete="email" required[^>]*aria-describedby="email-hint"/);
    expect(html).toContain('<button type="submit">Email me a sign-in link</button>');
    expect(html).toContain('<form method="get" action="/signin/sso">');
    expect(html).toContain('<label for="org">Organization</label>');
    expect(html).toContain('<a class="button secondary" href="/api/v1/auth/oauth/github/start">Continue with GitHub</a>');
    expect(html.match(/\/api\/v1\/auth\/oauth\//g)).toHaveLength(1);
    expect(html).not.toContain('role="alert"');
    expect(html).not.toMatch(/<script/i);
  });

  it('shows ?error= codes as a sentence in an alert, never echoing an unknown code', async () => {
    const known = await (await get('/signin?error=invalid_link')).text();
    expect(known).toMatch(/<div role="alert" class="alert">That sign-in link is invalid, was already used, or has expired\./);
    const unknown = await (await get(`/signin?error=${encodeURIComponent('<img src=x onerror=alert(1)>')}`)).text();
    expect(unknown).toContain('<div role="alert" class="alert">Sign-in did not complete.');
    expect(unknown).not.toContain('onerror');
    // Names of Object.prototype are not codes either.
    expect(await (await get('/signin?error=constructor&notice=toString')).text()).toContain('<div role="alert" class="alert">Sign-in did not complete.');
  });

  it('answers the same confirmation for a known and an unknown address; only the known one gets mail, over SMTP', async () => {
    const known = `admin@${t.slug}.test`;
    const unknown = `nobody-${t.slug}@example.com`;
    const before = mailbox.messages.length;
    const a = await post('/signin', { email: known });
    const b = await post('/signin', { email: unknown });
    expect([a.status, b.status]).toEqual([200, 200]);
    expectPageHeaders(a);
    const [pageA, pageB] = [await a.text(), await b.text()];
    expect(pageA).toContain('<h1>Check your email</h1>');
    expect(pageA).toContain('role="status"');
    expect(pageA.replace(known, 'X')).toBe(pageB.replace(unknown, 'X'));

    const mail = await mailbox.waitFor(known, { after: before });
    expect(mail.headers.subject).toBe('Your Lemma sign-in link');
    expect(mail.headers.from).toContain('no-reply@lemma.local');
    expect(mailbox.linkIn(mail).startsWith(`${server.url}/api/v1/auth/magic-link/verify?token=`)).toBe(true);
    expect(mailbox.messages.slice(before).some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('refuses a malformed address with the field marked invalid, and a cross-site post', async () => {
    const bad = await post('/signin', { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toMatch(/<input id="email"[^>]*value="not-an-email" aria-describedby="email-hint email-error" aria-invalid="true">/);
    expect(html).toContain('<p id="email-error" role="alert"');
    const before = mailbox.messages.length;
    const foreign = await post('/signin', { email: `admin@${t.slug}.test` }, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    const crossSite = await post('/signin', { email: `admin@${t.slug}.test` }, { sameSite: false, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(mailbox.messages.length).toBe(before);
  });

  it('SSO: an unknown organization or a malformed name is said so; a configured one continues to its start', async () => {
    const unknown = await get('/signin/sso?org=no-such-org');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Single sign-on is not set up for that organization.');
    const malformed = await get(`/signin/sso?org=${encodeURIComponent('"><b>')}`);
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).not.toContain('"><b>');

    const configured = await server.fetch(`/orgs/${t.slug}/sso`, {
      method: 'PUT',
      apiKey: t.adminKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ issuer: 'https://idp.example.com', clientId: 'lemma', clientSecret: 's3cret', allowedDomains: [`${t.slug}.test`] }),
    });
    expect(configured.status).toBe(200);
    const ok = await get(`/signin/sso?org=${t.slug}`);
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=/api/v1/auth/sso/${t.slug}/start">`);
    expect(html).toContain(`href="/api/v1/auth/sso/${t.slug}/start"`);
  });
});

describe(`the account page [${dialect}]`, () => {
  let t: Tenant;
  let cookie: string;
  beforeAll(async () => {
    t = await server.newTenant('acct');
    cookie = await signIn(`admin@${t.slug}.test`);
  });

  it('needs a session: without one it sends the visitor to /signin', async () => {
    const none = await get('/account');
    expect(none.status).toBe(303);
    expect(none.headers.get('location')).toBe('/signin');
    expectPageHeaders(none);
    const stale = await get('/account', 'lemma_session=not-a-session');
    expect(stale.status).toBe(303);
    expect(stale.headers.get('location')).toBe('/signin?error=session_ended');
    expect(stale.headers.get('set-cookie')).toContain('Max-Age=0');
  });

  it('shows the user, their organizations with their role, and the keys of the organizations they administer', async () => {
    const res = await get('/account', cookie);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const { html } = { html: await res.text() };
    expect(html).toContain(`<strong id="user-email">admin@${t.slug}.test</strong>`);
    expect(html).toContain(`<tr><td><code>${t.slug}</code></td><td>Org ${t.slug}</td><td>admin</td></tr>`);
    expect(html).toContain(`<h2 id="keys-${t.slug}">API keys of Org ${t.slug}`);
    // The key made at bootstrap, by its start only.
    expect(html).toContain(`<code>${t.adminKey.slice(0, 12)}…</code>`);
    expect(html).not.toContain(t.adminKey);
    expect(html).toContain('<form method="post" action="/account/sign-out">');
    expect(html).toContain(`<label for="keys-${t.slug}-name">Name</label>`);
    expect(html).toContain(`<label for="keys-${t.slug}-role">Role</label>`);
    expect(html).not.toContain('role="status"');
    const odd = await (await get('/account?notice=constructor', cookie)).text();
    expect(odd).not.toContain('role="status"');
  });

  it('creates a key shown once that works against the API, then revokes it', async () => {
    const { csrf } = await account(cookie);
    const created = await post(`/account/orgs/${t.slug}/api-keys`, { csrf, name: 'page-made', role: 'viewer' }, { cookie });
    expect(created.status).toBe(201);
    expectPageHeaders(created);
    const html = await created.text();
    expect(html).toContain('Copy this key now: it will not be shown again.');
    const key = newKeyOf(html)!;
    expect(key).toBeDefined();

    const withKey = await server.fetch(`/orgs/${t.slug}/members`, { apiKey: key });
    expect(withKey.status).toBe(200);
    const row = await server.deps.store.db.selectFrom('api_keys').select(['id', 'role', 'user_id']).where('start', '=', key.slice(0, 12)).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'viewer', user_id: t.adminUserId });

    const after = await account(cookie);
    expect(after.html).toContain('<td>page-made</td>');
    expect(after.html).not.toContain(key);

    const revoked = await post(`/account/orgs/${t.slug}/api-keys/${row.id}/revoke`, { csrf: after.csrf }, { cookie });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/account?notice=key_revoked');
    expect((await server.fetch(`/orgs/${t.slug}/members`, { apiKey: key })).status).toBe(401);
    const listed = await (await get('/account?notice=key_revoked', cookie)).text();
    expect(listed).toContain('<div role="status" class="status">The API key was revoked.');
    expect(listed).not.toContain(`/api-keys/${row.id}/revoke`);
    const again = await post(`/account/orgs/${t.slug}/api-keys/${row.id}/revoke`, { csrf: after.csrf }, { cookie });
    expect(again.status).toBe(409);

    const audit = await server.deps.store.db.selectFrom('audit_log').select(['action', 'user_id']).where('org_id', '=', t.orgId).where('resource_id', '=', row.id).orderBy('seq').execute();
    expect(audit).toEqual([{ action: 'api_key.created', user_id: t.adminUserId }, { action: 'api_key.revoked', user_id: t.adminUserId }]);
  });

  it('escapes what it shows, and refuses a bad name with the form kept', async () => {
    const { csrf } = await account(cookie);
    const name = '<script>alert("x")</script>';
    const created = await post(`/account/orgs/${t.slug}/api-keys`, { csrf, name, role: 'viewer' }, { cookie });
    expect(created.status).toBe(201);
    const shown = await created.text();
    expect(shown).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(shown).not.toContain('<script>');
    const { html } = await account(cookie);
    expect(html).toContain('<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td>');
    expect(html).not.toContain('<script>');

    const empty = await post(`/account/orgs/${t.slug}/api-keys`, { csrf, name: '   ', role: 'viewer' }, { cookie });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('<div role="alert" class="alert">Give the key a name of 1 to 100 characters.</div>');
    const badRole = await post(`/account/orgs/${t.slug}/api-keys`, { csrf, name: 'x', role: 'owner' }, { cookie });
    expect(badRole.status).toBe(400);
  });

  it('refuses a cross-site post (wrong Origin, cross-site fetch, missing or wrong token) with 403 and changes nothing', async () => {
    const { csrf } = await account(cookie);
    const count = async () => Number((await server.deps.store.db.selectFrom('api_keys').where('org_id', '=', t.orgId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const path = `/account/orgs/${t.slug}/api-keys`;
    const fields = { name: 'csrf', role: 'viewer' };
    const attempts = [
      await post(path, { ...fields, csrf }, { cookie, headers: { origin: 'https://evil.example' } }),
      await post(path, { ...fields, csrf }, { cookie, sameSite: false }),
      await post(path, { ...fields, csrf }, { cookie, sameSite: false, headers: { 'sec-fetch-site': 'cross-site' } }),
      await post(path, { ...fields, csrf }, { cookie, headers: { 'sec-fetch-site': 'same-site' } }),
      await post(path, fields, { cookie }),
      await post(path, { ...fields, csrf: '0'.repeat(64) }, { cookie }),
      await post(path, { ...fields, csrf: csrf.slice(1) }, { cookie }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expectPageHeaders(res);
      expect(await res.text()).toContain('role="alert"');
    }
    expect(await count()).toBe(before);

    // Another session's token is not this one's.
    const otherCookie = await signIn(`admin@${t.slug}.test`);
    const other = await account(otherCookie);
    expect(other.csrf).not.toBe(csrf);
    expect((await post(path, { ...fields, csrf: other.csrf }, { cookie })).status).toBe(403);

    const live = await server.deps.store.db.selectFrom('api_keys').select('id').where('org_id', '=', t.orgId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const revoke = await post(`/account/orgs/${t.slug}/api-keys/${live.id}/revoke`, {}, { cookie });
    expect(revoke.status).toBe(403);
    const signOut = await post('/account/sign-out', { csrf }, { cookie, headers: { origin: 'https://evil.example' } });
    expect(signOut.status).toBe(403);
    expect(await count()).toBe(before);
    const still = await server.deps.store.db.selectFrom('api_keys').select('revoked_at').where('id', '=', live.id).executeTakeFirstOrThrow();
    expect(still.revoked_at).toBeNull();
    expect((await get('/account', cookie)).status).toBe(200);
    // What a browser sends from the page itself (Sec-Fetch-Site, no usable Origin) with the token passes.
    const sameOrigin = await post(path, { ...fields, csrf }, { cookie, sameSite: false, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(sameOrigin.status).toBe(201);
  });

  it('a member who is not admin sees the organization but no keys, and cannot create one', async () => {
    const email = `viewer@${t.slug}.test`;
    await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email, role: 'viewer' } });
    const viewer = await signIn(email);
    const { html, csrf } = await account(viewer);
    expect(html).toContain(`<tr><td><code>${t.slug}</code></td><td>Org ${t.slug}</td><td>viewer</td></tr>`);
    expect(html).not.toContain('API keys of');
    const refused = await post(`/account/orgs/${t.slug}/api-keys`, { csrf, name: 'mine', role: 'viewer' }, { cookie: viewer });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Only administrators of this organization manage its API keys.');
    const stranger = await post('/account/orgs/no-such-org/api-keys', { csrf, name: 'mine', role: 'viewer' }, { cookie: viewer });
    expect(stranger.status).toBe(403);
  });

  it('signing out ends the session and clears the cookie', async () => {
    const mine = await signIn(`admin@${t.slug}.test`);
    const { csrf } = await account(mine);
    const out = await post('/account/sign-out', { csrf }, { cookie: mine });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/signin?notice=signed_out');
    expect(out.headers.get('set-cookie')).toMatch(/^lemma_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
    expect(await (await get('/signin?notice=signed_out')).text()).toContain('<div role="status" class="status">You have signed out.</div>');
    const after = await get('/account', mine);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/signin?error=session_ended');
    expect((await server.fetch('/auth/session', { headers: { cookie: mine } })).status).toBe(401);
    // Other sessions of the same user go on.
    expect((await get('/account', cookie)).status).toBe(200);
  });
});
