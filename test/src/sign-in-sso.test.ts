/**
 * Enterprise SSO end to end against real OpenID providers (`oidc-provider`) on 127.0.0.1: the
 * browser's part (the provider's login and consent pages, the redirects, the cookies) is driven by
 * fetch with manual redirects. Provider A puts the email in the ID token (as Entra ID and Google
 * do); provider B only in UserInfo. Both sign with the same key and know the same client, so that a
 * token of one offered as the other's fails on its issuer alone.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

const CLIENT_ID = 'lemma-sso';
const CLIENT_SECRET = `secret-${randomBytes(16).toString('hex')}`;
const OTHER_CLIENT_ID = 'another-app';

interface AccountClaims {
  email?: string;
  email_verified?: boolean;
  hd?: string;
  name?: string;
}

/** A running provider, with two hooks for the mix-up tests. */
interface Idp {
  issuer: string;
  accounts: Map<string, AccountClaims>;
  /** Discovery documents served. */
  discoveries: number;
  /**
   * One-shot: the next token request is forwarded to `target`'s token endpoint, its `client_id`
   * optionally swapped. Plays a token endpoint that answers with someone else's ID token.
   */
  tokenMixup?: { target: string; clientId?: string };
  close(): Promise<void>;
}

// The RSA key both providers sign with (a JWK with its private part).
const signingKey = { ...(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as Record<string, unknown>), kid: 'shared-signing-key', use: 'sig', alg: 'RS256' };

type ProviderCtor = new (issuer: string, config: Record<string, unknown>) => {
  use(mw: (ctx: any, next: () => Promise<void>) => Promise<void>): void;
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
};

async function startIdp(redirectUris: string[], opts: { idTokenHasEmail: boolean }): Promise<Idp> {
  // oidc-provider ships no type declarations.
  const { default: Provider } = (await import('oidc-provider' as string)) as { default: ProviderCtor };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: Idp = {
    issuer,
    accounts: new Map(),
    discoveries: 0,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  const client = (client_id: string) => ({
    client_id, client_secret: CLIENT_SECRET, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post',
  });
  const provider = new Provider(issuer, {
    clients: [client(CLIENT_ID), client(OTHER_CLIENT_ID)],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    claims: { openid: ['sub', 'hd'], email: ['email', 'email_verified'], profile: ['name'] },
    // false: the scope's claims go in the ID token too (true, the default, keeps them to UserInfo).
    conformIdTokenClaims: !opts.idTokenHasEmail,
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx: unknown, sub: string) => {
      const claims = idp.accounts.get(sub);
      return claims && { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
  });
  provider.use(async (ctx, next) => {
    if (ctx.path === '/.well-known/openid-configuration') idp.discoveries++;
    const mixup = idp.tokenMixup;
    if (mixup && ctx.method === 'POST' && ctx.path === '/token') {
      idp.tokenMixup = undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) chunks.push(chunk);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      if (mixup.clientId) form.set('client_id', mixup.clientId);
      const res = await fetch(`${mixup.target}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
      ctx.status = res.status;
      ctx.type = 'application/json';
      ctx.set('cache-control', 'no-store');
      ctx.body = await res.text();
      return;
    }
    await next();
  });
  server.on('request', provider.callback());
  return idp;
}

let server: TestServer;
/** The organizations: A on provider A (generic), G on A (Google Workspace preset), B on provider B (Okta preset). */
let tA: Tenant;
let tG: Tenant;
let tB: Tenant;
let idpA: Idp;
let idpB: Idp;

const callbackOf = (slug: string) => `${server.url}/api/v1/auth/sso/${slug}/callback`;

async function configureSso(t: Tenant, body: Record<string, unknown>): Promise<Response> {
  return server.fetch(`/orgs/${t.slug}/sso`, { method: 'PUT', apiKey: t.adminKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

beforeAll(async () => {
  server = await startTestServer({ LEMMA_RATE_LIMIT_STRICT: '1000' });
  [tA, tG, tB] = [await server.newTenant('sso'), await server.newTenant('ssog'), await server.newTenant('ssob')];
  const redirectUris = [tA, tG, tB].map((t) => callbackOf(t.slug));
  idpA = await startIdp(redirectUris, { idTokenHasEmail: true });
  idpB = await startIdp(redirectUris, { idTokenHasEmail: false });
  for (const idp of [idpA, idpB]) {
    idp.accounts.set('alice', { email: 'Alice@Acme.test', email_verified: true, name: 'Alice' });
    idp.accounts.set('admin', { email: `admin@${tA.slug}.test`, email_verified: true });
    idp.accounts.set('bob', { email: 'bob@acme.test', email_verified: true });
    idp.accounts.set('eve', { email: 'eve@evil.test', email_verified: true });
    idp.accounts.set('unverified', { email: 'unverified@acme.test', email_verified: false });
    idp.accounts.set('noemail', {});
    idp.accounts.set('carol', { email: 'carol@acme.test', email_verified: true });
    idp.accounts.set('gw', { email: 'gw@corp.test', email_verified: true, hd: 'corp.test' });
    idp.accounts.set('personal', { email: 'personal@corp.test', email_verified: true });
  }
  for (const [t, body] of [
    [tA, { preset: 'generic', issuer: idpA.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, allowedDomains: ['acme.test', `${tA.slug}.test`], defaultRole: 'author' }],
    [tG, { preset: 'google_workspace', issuer: idpA.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, allowedDomains: ['corp.test'] }],
    [tB, { preset: 'okta', issuer: `${idpB.issuer}/`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, allowedDomains: ['acme.test'] }],
  ] as const) {
    expect((await configureSso(t, body)).status).toBe(200);
  }
});
afterAll(async () => {
  await idpA?.close();
  await idpB?.close();
});

/** `GET /auth/sso/{slug}/start`: the provider's authorization URL and the flow cookie (`name=value`). */
async function start(slug: string): Promise<{ authUrl: URL; flowCookie: string }> {
  const res = await server.fetch(`/auth/sso/${slug}/start`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const setCookie = res.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/^lemma_sso=[\w:-]+; Path=\/api\/v1\/auth\/sso\/; HttpOnly; SameSite=Lax; Max-Age=600$/);
  return { authUrl: new URL(res.headers.get('location')!), flowCookie: setCookie.split(';')[0]! };
}

/**
 * The browser at the provider: follows its redirects with its cookies, fills the dev login form as
 * `account` and consents (or aborts), until the provider redirects back to Lemma. Returns that URL.
 */
async function loginAtIdp(authUrl: URL | string, account: string, opts: { abort?: boolean } = {}): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authUrl);
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 16; hop++) {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method: form ? 'POST' : 'GET', headers, body: form?.toString(), redirect: 'manual' });
    form = undefined;
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [name, ...value] = pair!.trim().split('=');
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now());
      if (expired || value.join('=') === '') jar.delete(name!);
      else jar.set(name!, value.join('='));
    }
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.href.startsWith(server.url)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    const prompt = res.status === 200 ? /name="prompt" value="(\w+)"/.exec(html)?.[1] : undefined;
    if (prompt && opts.abort) url = new URL(`${url.pathname}/abort`, url);
    else if (prompt === 'login') form = new URLSearchParams({ prompt: 'login', login: account, password: 'any' });
    else if (prompt === 'consent') form = new URLSearchParams({ prompt: 'consent' });
    else throw new Error(`the provider answered ${res.status} at ${url.href}: ${html.slice(0, 500)}`);
  }
  throw new Error('too many redirects at the provider');
}

/** Lemma's callback as the browser reaches it: the provider's redirect, with the flow cookie. */
async function callback(url: URL, flowCookie: string | undefined): Promise<Response> {
  return server.fetch(`${url.pathname.replace(/^\/api\/v1/, '')}${url.search}`, { redirect: 'manual', headers: flowCookie ? { cookie: flowCookie } : {} });
}

/** A whole sign-in as `account`; returns Lemma's answer to the callback. */
async function signIn(t: Tenant, account: string, idp: Idp = idpA): Promise<Response> {
  const { authUrl, flowCookie } = await start(t.slug);
  expect(authUrl.origin).toBe(idp.issuer);
  return callback(await loginAtIdp(authUrl, account), flowCookie);
}

/** The session cookie (`name=value`) of a successful callback. */
function expectSignedIn(res: Response): string {
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/account');
  const cookies = res.headers.getSetCookie();
  expect(cookies.some((c) => /^lemma_sso=; .*Max-Age=0/.test(c)), 'the flow cookie is cleared').toBe(true);
  const session = cookies.find((c) => c.startsWith('lemma_session='));
  expect(session).toMatch(/^lemma_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
  return session!.split(';')[0]!;
}

function expectRefused(res: Response, code: string): void {
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe(`/signin?error=${code}`);
  const cookies = res.headers.getSetCookie();
  expect(cookies.some((c) => c.startsWith('lemma_session='))).toBe(false);
  expect(cookies.some((c) => /^lemma_sso=; .*Max-Age=0/.test(c))).toBe(true);
}

/** Row counts of everything a sign-in could create. */
async function counts() {
  const { db } = server.deps.store;
  const n = async (table: 'users' | 'members' | 'sessions' | 'audit_log') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { users: await n('users'), members: await n('members'), sessions: await n('sessions'), audit: await n('audit_log') };
}

/** What the server logged of the last refusal. */
const lastRefusal = () => server.logs.filter((l) => l.msg === 'SSO sign-in refused').at(-1) as { reason?: string; detail?: string } | undefined;

const memberOf = (t: Tenant, email: string) =>
  server.deps.store.db.selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id').select(['m.id', 'm.role']).where('m.org_id', '=', t.orgId).where('u.email', '=', email).execute();

describe(`enterprise SSO with OpenID Connect [${dialect}]`, () => {
  it('start redirects to the provider with PKCE, state and nonce; an organization without SSO is 404', async () => {
    const { authUrl, flowCookie } = await start(tA.slug);
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${idpA.issuer}/auth`);
    const p = authUrl.searchParams;
    expect(Object.fromEntries(['client_id', 'redirect_uri', 'response_type', 'scope', 'code_challenge_method'].map((k) => [k, p.get(k)]))).toEqual({
      client_id: CLIENT_ID, redirect_uri: callbackOf(tA.slug), response_type: 'code', scope: 'openid email profile', code_challenge_method: 'S256',
    });
    for (const k of ['state', 'nonce', 'code_challenge']) expect(p.get(k)).toMatch(/^[\w-]{43,}$/);
    // The cookie is sealed: none of the flow's secrets can be read from it.
    expect(flowCookie).not.toContain(p.get('state')!);
    expect(flowCookie).not.toContain(p.get('nonce')!);

    const plain = await server.newTenant('nosso');
    const res = await server.fetch(`/auth/sso/${plain.slug}/start`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect((await server.fetch(`/auth/sso/${plain.slug}/callback?code=x&state=y`, { redirect: 'manual' })).status).toBe(404);
    expect((await server.fetch('/auth/sso/no-such-org/start', { redirect: 'manual' })).status).toBe(404);
  });

  it('a new person in an allowed domain joins with the default role and is signed in', async () => {
    expect(await memberOf(tA, 'alice@acme.test')).toEqual([]);
    const cookie = expectSignedIn(await signIn(tA, 'alice'));
    const session = await server.fetch('/auth/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { data: unknown }).data).toMatchObject({ user: { email: 'alice@acme.test' }, organizations: [{ slug: tA.slug, role: 'author' }] });
    // The session works on the API, as the new member.
    expect((await server.fetch(`/orgs/${tA.slug}/members`, { headers: { cookie } })).status).toBe(200);

    const [member] = await memberOf(tA, 'alice@acme.test');
    expect(member!.role).toBe('author');
    const audit = await server.deps.store.db.selectFrom('audit_log').select(['action', 'details', 'resource_id']).where('org_id', '=', tA.orgId).where('action', 'in', ['member.joined', 'auth.signed_in']).orderBy('seq').execute();
    const joined = audit.filter((a) => a.action === 'member.joined');
    expect(joined).toHaveLength(1);
    expect(joined[0]!.resource_id).toBe(member!.id);
    expect(JSON.parse(joined[0]!.details)).toEqual({ email: 'alice@acme.test', role: 'author', via: 'sso' });
    expect(audit.at(-1)!.action).toBe('auth.signed_in');
    expect(JSON.parse(audit.at(-1)!.details)).toEqual({ method: 'sso' });
  });

  it('an existing member signs in without a second membership or a role change', async () => {
    // The callback as Entra ID sends it, with `session_state` besides the code.
    const flow = await start(tA.slug);
    const back = await loginAtIdp(flow.authUrl, 'alice');
    back.searchParams.set('session_state', randomBytes(16).toString('hex'));
    expectSignedIn(await callback(back, flow.flowCookie));
    expect(await memberOf(tA, 'alice@acme.test')).toHaveLength(1);
    // The organization's admin (made at bootstrap) keeps the admin role.
    const before = await counts();
    const cookie = expectSignedIn(await signIn(tA, 'admin'));
    expect(await memberOf(tA, `admin@${tA.slug}.test`)).toEqual([expect.objectContaining({ role: 'admin' })]);
    const after = await counts();
    expect({ users: after.users, members: after.members, sessions: after.sessions }).toEqual({ users: before.users, members: before.members, sessions: before.sessions + 1 });
    const session = await server.fetch('/auth/session', { headers: { cookie } });
    expect(((await session.json()) as { data: { user: { id: string } } }).data.user.id).toBe(tA.adminUserId);
    const joins = await server.deps.store.db.selectFrom('audit_log').select('id').where('org_id', '=', tA.orgId).where('action', '=', 'member.joined').execute();
    expect(joins).toHaveLength(1);
  });

  it('a forged or missing state, or another organization\'s flow cookie, is refused and creates nothing', async () => {
    const before = await counts();
    const { authUrl, flowCookie } = await start(tA.slug);
    const back = await loginAtIdp(authUrl, 'bob');
    const forged = new URL(back);
    forged.searchParams.set('state', randomBytes(32).toString('base64url'));
    expectRefused(await callback(forged, flowCookie), 'invalid_state');
    expect(lastRefusal()?.reason).toBe('invalid_state');
    // No flow cookie at all (a callback the browser did not start).
    expectRefused(await callback(back, undefined), 'invalid_state');
    // A genuine flow cookie, but of another organization's sign-in.
    const other = await start(tG.slug);
    expectRefused(await callback(back, other.flowCookie), 'invalid_state');
    // A cookie that is not one of ours.
    expectRefused(await callback(back, 'lemma_sso=v1:abcd:AAAA:BBBB:CCCC'), 'invalid_state');
    expect(await counts()).toEqual(before);
    expect(await memberOf(tA, 'bob@acme.test')).toEqual([]);
  });

  it('a replayed callback (the same code and state again) is refused', async () => {
    const { authUrl, flowCookie } = await start(tA.slug);
    const back = await loginAtIdp(authUrl, 'alice');
    expectSignedIn(await callback(back, flowCookie));
    const before = await counts();
    expectRefused(await callback(back, flowCookie), 'sso_failed');
    expect(lastRefusal()?.detail).toContain('(invalid_grant)');
    expect(await counts()).toEqual(before);
  });

  it('an email outside the allowed domains, unverified or missing is refused, and creates nothing', async () => {
    const before = await counts();
    expectRefused(await signIn(tA, 'eve'), 'domain_not_allowed');
    expectRefused(await signIn(tA, 'unverified'), 'email_not_verified');
    expectRefused(await signIn(tA, 'noemail'), 'email_missing');
    expect(await counts()).toEqual(before);
    const users = await server.deps.store.db.selectFrom('users').select('id').where('email', 'in', ['eve@evil.test', 'unverified@acme.test']).execute();
    expect(users).toEqual([]);
  });

  it('the person declining at the provider is refused', async () => {
    const before = await counts();
    const { authUrl, flowCookie } = await start(tA.slug);
    const back = await loginAtIdp(authUrl, 'bob', { abort: true });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBeTruthy();
    expectRefused(await callback(back, flowCookie), 'sso_denied');
    expect(await counts()).toEqual(before);
  });

  it('a tampered nonce or PKCE verifier in the flow is refused', async () => {
    const before = await counts();
    const reseal = (flowCookie: string, change: Record<string, string>) => {
      const { secrets } = server.deps;
      const opened = JSON.parse(secrets.decrypt(flowCookie.slice('lemma_sso='.length))) as { d: Record<string, string> };
      return `lemma_sso=${secrets.encrypt(JSON.stringify({ ...opened, d: { ...opened.d, ...change } }))}`;
    };
    // The provider puts the nonce it was sent in the ID token; the flow expects another one.
    const one = await start(tA.slug);
    expectRefused(await callback(await loginAtIdp(one.authUrl, 'bob'), reseal(one.flowCookie, { nonce: 'not-the-nonce-that-was-sent' })), 'sso_failed');
    expect(lastRefusal()?.detail).toContain('"nonce"');
    // The provider refuses a code exchanged with a verifier that does not match the challenge.
    const two = await start(tA.slug);
    expectRefused(await callback(await loginAtIdp(two.authUrl, 'bob'), reseal(two.flowCookie, { verifier: randomBytes(32).toString('base64url') })), 'sso_failed');
    expect(lastRefusal()?.detail).toMatch(/invalid_grant|PKCE|code_verifier/i);
    expect(await counts()).toEqual(before);
  });

  it('an ID token from another issuer is refused', async () => {
    const before = await counts();
    // Provider B signs with the same key and knows the same client: only the issuer differs.
    // The authorization happens at B, and A's token endpoint hands out B's tokens.
    const { authUrl, flowCookie } = await start(tA.slug);
    const atB = new URL(`${authUrl.pathname}${authUrl.search}`, idpB.issuer);
    const back = await loginAtIdp(atB, 'bob');
    expect(back.searchParams.get('iss')).toBe(idpB.issuer);
    // As B sent it, RFC 9207's `iss` already gives it away.
    expectRefused(await callback(back, flowCookie), 'sso_failed');
    expect(lastRefusal()?.detail).toContain('"iss"');

    // With `iss` rewritten, the ID token's own issuer is what refuses it.
    const second = await start(tA.slug);
    const back2 = await loginAtIdp(new URL(`${second.authUrl.pathname}${second.authUrl.search}`, idpB.issuer), 'bob');
    back2.searchParams.set('iss', idpA.issuer);
    idpA.tokenMixup = { target: idpB.issuer };
    expectRefused(await callback(back2, second.flowCookie), 'sso_failed');
    expect(idpA.tokenMixup).toBeUndefined();
    expect(lastRefusal()?.detail).toContain('unexpected JWT "iss" (issuer) claim value');
    expect(await counts()).toEqual(before);
  });

  it('an ID token for another client (audience) is refused', async () => {
    const before = await counts();
    // Same provider and key; the code is issued to another client, and A's token endpoint
    // exchanges it as that client: an ID token whose `aud` is not Lemma's client id.
    const { authUrl, flowCookie } = await start(tA.slug);
    authUrl.searchParams.set('client_id', OTHER_CLIENT_ID);
    const back = await loginAtIdp(authUrl, 'bob');
    idpA.tokenMixup = { target: idpA.issuer, clientId: OTHER_CLIENT_ID };
    expectRefused(await callback(back, flowCookie), 'sso_failed');
    expect(idpA.tokenMixup).toBeUndefined();
    expect(lastRefusal()?.detail).toContain('unexpected JWT "aud" (audience) claim value');
    expect(await counts()).toEqual(before);
  });

  it('Google Workspace preset: the hosted domain (hd) must be allowed too', async () => {
    expectSignedIn(await signIn(tG, 'gw'));
    expect(await memberOf(tG, 'gw@corp.test')).toEqual([expect.objectContaining({ role: 'viewer' })]);
    const before = await counts();
    // An address in the domain, but not a Workspace account (no `hd`).
    expectRefused(await signIn(tG, 'personal'), 'domain_not_allowed');
    expect(await counts()).toEqual(before);
  });

  it('a provider that gives the email only through UserInfo (Okta preset, issuer with a trailing slash)', async () => {
    const cookie = expectSignedIn(await signIn(tB, 'carol', idpB));
    const session = await server.fetch('/auth/session', { headers: { cookie } });
    expect(((await session.json()) as { data: unknown }).data).toMatchObject({ user: { email: 'carol@acme.test' }, organizations: [{ slug: tB.slug, role: 'viewer' }] });
    // A's tokens are not B's: provider A cannot sign anyone in to B's organization.
    const { authUrl, flowCookie } = await start(tB.slug);
    const back = await loginAtIdp(new URL(`${authUrl.pathname}${authUrl.search}`, idpA.issuer), 'carol');
    expectRefused(await callback(back, flowCookie), 'sso_failed');
  });

  it('discovery is cached per provider configuration', async () => {
    await start(tA.slug);
    const seen = idpA.discoveries;
    await start(tA.slug);
    await start(tA.slug);
    expect(idpA.discoveries).toBe(seen);
    // A new configuration (here, the secret re-sent) is discovered anew.
    expect((await configureSso(tA, { issuer: idpA.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, allowedDomains: ['acme.test', `${tA.slug}.test`] })).status).toBe(200);
    await start(tA.slug);
    expect(idpA.discoveries).toBe(seen + 1);
  });

  it('the client secret is stored encrypted and never returned', async () => {
    const row = await server.deps.store.db.selectFrom('sso_configs').selectAll().where('org_id', '=', tA.orgId).executeTakeFirstOrThrow();
    expect(row.client_secret_ciphertext).toMatch(/^v1:/);
    expect(row.client_secret_ciphertext).not.toContain(CLIENT_SECRET);
    expect(server.deps.secrets.decrypt(row.client_secret_ciphertext!)).toBe(CLIENT_SECRET);
    const res = await server.fetch(`/orgs/${tA.slug}/sso`, { apiKey: tA.adminKey });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(CLIENT_SECRET);
    expect(JSON.parse(text)).toMatchObject({ data: { clientSecretSet: true, issuer: idpA.issuer, redirectUri: callbackOf(tA.slug) } });
    // Nor in the audit log, nor in the server's log.
    const audit = await server.deps.store.db.selectFrom('audit_log').select('details').where('org_id', '=', tA.orgId).execute();
    expect(audit.some((a) => a.details.includes(CLIENT_SECRET))).toBe(false);
    expect(JSON.stringify(server.logs)).not.toContain(CLIENT_SECRET);
  });
});
