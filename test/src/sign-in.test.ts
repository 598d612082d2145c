import { inviteMember } from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LEMMA_RATE_LIMIT_STRICT: '1000' });
});

/** The link of the last sign-in mail to this address in the dev outbox (server log). */
function linkFor(email: string): string | undefined {
  const mails = server.logs.filter((l) => (l.outbox as { to?: string } | undefined)?.to === email);
  const text = (mails.at(-1)?.outbox as { text?: string } | undefined)?.text ?? '';
  return /(http\S+\/auth\/magic-link\/verify\?token=\S+)/.exec(text)?.[1];
}

async function signIn(email: string): Promise<string> {
  const asked = await server.fetch('/auth/magic-link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(asked.status).toBe(202);
  const link = linkFor(email);
  expect(link, 'a link in the dev outbox').toBeDefined();
  const res = await fetch(link!, { redirect: 'manual' });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/account');
  const cookie = res.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^lemma_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
  return cookie.split(';')[0]!;
}

describe(`web sessions and magic links [${dialect}]`, () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await server.newTenant('web');
  });

  it('a magic link signs in once; the session works on every endpoint; sign-out ends it', async () => {
    const email = `admin@${t.slug}.test`;
    const cookie = await signIn(email);
    const session = await server.fetch('/auth/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { data: unknown }).data).toMatchObject({ user: { id: t.adminUserId, email }, organizations: [{ slug: t.slug, role: 'admin' }] });
    // The only organization is taken without X-Lemma-Org.
    const members = await server.fetch(`/orgs/${t.slug}/members`, { headers: { cookie } });
    expect(members.status).toBe(200);
    // The link is single-use.
    const replay = await fetch(linkFor(email)!, { redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/signin?error=invalid_link');
    expect(replay.headers.get('set-cookie')).toBeNull();

    const out = await server.fetch('/auth/sign-out', { method: 'POST', headers: { cookie, origin: server.url } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await server.fetch('/auth/session', { headers: { cookie } });
    expect(after.status).toBe(401);
    const audit = await server.deps.store.db.selectFrom('audit_log').select('action').where('org_id', '=', t.orgId).where('action', 'in', ['auth.signed_in', 'auth.signed_out']).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['auth.signed_in', 'auth.signed_out']);
  });

  it('refuses a cross-site change made with a valid cookie (CSRF), nothing created', async () => {
    const cookie = await signIn(`admin@${t.slug}.test`);
    const body = JSON.stringify({ email: `csrf@${t.slug}.test`, role: 'viewer' });
    const headers = { cookie, 'content-type': 'application/json' };
    const foreign = await server.fetch(`/orgs/${t.slug}/members`, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { details: unknown } }).error.details).toMatchObject({ rule: 'csrf' });
    const noOrigin = await server.fetch(`/orgs/${t.slug}/members`, { method: 'POST', headers, body });
    expect(noOrigin.status).toBe(403);
    const crossSite = await server.fetch(`/orgs/${t.slug}/members`, { method: 'POST', headers: { ...headers, 'sec-fetch-site': 'cross-site' }, body });
    expect(crossSite.status).toBe(403);
    const members = await server.deps.store.db.selectFrom('users').select('id').where('email', '=', `csrf@${t.slug}.test`).execute();
    expect(members).toEqual([]);
    const same = await server.fetch(`/orgs/${t.slug}/members`, { method: 'POST', headers: { ...headers, origin: server.url }, body });
    expect(same.status).toBe(201);
  });

  it('the same answer for an unknown address, and no mail; a malformed one is 400', async () => {
    const before = server.logs.length;
    const res = await server.fetch('/auth/magic-link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@nowhere.test' }) });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ data: { accepted: true } });
    expect(server.logs.slice(before).some((l) => l.outbox !== undefined)).toBe(false);
    const bad = await server.fetch('/auth/magic-link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'not-an-email' }) });
    expect(bad.status).toBe(400);
  });

  it('an expired link signs nobody in; an idle session ends', async () => {
    const email = `admin@${t.slug}.test`;
    await server.fetch('/auth/magic-link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    const link = linkFor(email)!;
    await server.deps.store.db.updateTable('magic_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('used_at', 'is', null).execute();
    const expired = await fetch(link, { redirect: 'manual' });
    expect(expired.headers.get('location')).toBe('/signin?error=invalid_link');

    const cookie = await signIn(email);
    await server.deps.store.db.updateTable('sessions').set({ idle_expires_at: new Date(Date.now() - 1000).toISOString() }).execute();
    expect((await server.fetch('/auth/session', { headers: { cookie } })).status).toBe(401);
    // A cookie of a deleted session is refused the same way.
    const cookie2 = await signIn(email);
    await server.deps.store.db.deleteFrom('sessions').execute();
    expect((await server.fetch(`/orgs/${t.slug}/members`, { headers: { cookie: cookie2 } })).status).toBe(401);
  });

  it('a user in several organizations names one with X-Lemma-Org', async () => {
    const other = await server.newTenant('web2');
    const email = `admin@${t.slug}.test`;
    await inviteMember({ client: other.admin, path: { slug: other.slug }, body: { email, role: 'viewer' } });
    const cookie = await signIn(email);
    const unnamed = await server.fetch('/units', { headers: { cookie } });
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { error: { details: { field: string } } }).error.details.field).toBe('X-Lemma-Org');
    const named = await server.fetch(`/orgs/${other.slug}/members`, { headers: { cookie, 'x-lemma-org': other.slug } });
    expect(named.status).toBe(200);
    const viewerWrite = await server.fetch(`/orgs/${other.slug}/members`, { method: 'POST', headers: { cookie, 'x-lemma-org': other.slug, origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'x@y.test', role: 'viewer' }) });
    expect(viewerWrite.status).toBe(403);
    const stranger = await server.fetch('/units', { headers: { cookie, 'x-lemma-org': 'no-such-org' } });
    expect(stranger.status).toBe(400);
  });
});

describe(`the strict tier [${dialect}]`, () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ LEMMA_RATE_LIMIT_STRICT: '5' });
  });

  it('allows 5 sign-in requests per window per client address, then 429 with Retry-After', async () => {
    const ask = () => strict.fetch('/auth/magic-link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'someone@example.com' }) });
    for (let i = 0; i < 5; i++) expect((await ask()).status).toBe(202);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
