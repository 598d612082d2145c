/**
 * Enterprise single sign-on through OpenID Connect (docs/SIGN-IN.md, "Enterprise SSO"): the
 * authorization code flow with PKCE, state and nonce, against the identity provider an organization
 * configured (`PUT /orgs/{slug}/sso`, sso-config.ts). openid-client does the protocol: discovery,
 * the code exchange and every check of the ID token (signature, `iss`, `aud`, `exp`, `nonce`), the
 * RFC 9207 `iss` of the authorization response, and `state`. This module adds what is Lemma's:
 * whose email it is, whether that email may join this organization, and the session.
 */
import * as oidc from 'openid-client';
import { insertAuditEntry } from '../audit/audit.repository.js';
import { isRole, type Role } from '../auth/roles.js';
import { startSession } from '../auth/sessions.js';
import type { SsoConfigsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Deps } from '../deps.js';
import { findMemberByUser, findOrCreateUser, insertMember } from '../members/members.repository.js';
import { findOrgBySlug } from '../orgs/orgs.repository.js';
import { notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import { openFlow, sealFlow } from './flow-cookie.js';
import { findSsoConfig, ssoRedirectUri, type SsoPreset } from './sso-config.js';

/** The flow cookie: sent only to the SSO endpoints, alive 10 minutes. */
export const SSO_FLOW_COOKIE = 'lemma_sso';
export const SSO_FLOW_COOKIE_PATH = '/api/v1/auth/sso/';
export const SSO_FLOW_TTL_MS = 10 * 60 * 1000;
export const SSO_SCOPE = 'openid email profile';
/** How long a discovered provider (metadata, and the signing keys fetched with it) is reused. */
export const SSO_DISCOVERY_TTL_MS = 5 * 60 * 1000;
/** Seconds allowed for each request to the identity provider. */
const IDP_TIMEOUT_S = 10;

/** What the flow cookie carries from the start to the callback. */
export interface SsoFlowState {
  /** The organization's id: a cookie of another organization's flow is refused. */
  org: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** The `error` of `/signin?error=<code>` after a refused SSO callback. */
export type SsoFailure = 'invalid_state' | 'sso_denied' | 'sso_failed' | 'email_missing' | 'email_not_verified' | 'domain_not_allowed';

export type SsoCallbackOutcome = { ok: true; token: string; userId: string; joined: boolean } | { ok: false; code: SsoFailure };

interface RequestMeta {
  userAgent: string | null;
  ipAddress: string | null;
}

// ------------------------------------------------------------------ the provider, discovered

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Plain http is allowed for an issuer on this machine only (a provider run by a test or a local
 * development setup); any other issuer must be https, as openid-client requires.
 */
export function insecureIssuerAllowed(issuer: URL): boolean {
  return issuer.protocol === 'http:' && LOOPBACK.test(issuer.hostname);
}

interface CachedClient {
  expiresAt: number;
  config: Promise<oidc.Configuration>;
}

/** Per server (deps): discovered providers by issuer, client id and secret. */
const clientCaches = new WeakMap<Deps, Map<string, CachedClient>>();

/**
 * The openid-client configuration of an organization's provider: discovery at
 * `<issuer>/.well-known/openid-configuration`, reused for SSO_DISCOVERY_TTL_MS (with the JWKS it
 * fetched), keyed by everything it is made of so that a changed configuration is discovered anew.
 * A failed discovery is not kept.
 */
async function clientFor(deps: Deps, row: SsoConfigsTable): Promise<oidc.Configuration> {
  let cache = clientCaches.get(deps);
  if (!cache) clientCaches.set(deps, (cache = new Map()));
  const key = `${row.issuer}\n${row.client_id}\n${row.client_secret_ciphertext}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now) return hit.config;
  for (const [k, v] of cache) if (v.expiresAt <= now) cache.delete(k);
  const entry: CachedClient = { expiresAt: now + SSO_DISCOVERY_TTL_MS, config: discover(deps, row) };
  cache.set(key, entry);
  entry.config.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return entry.config;
}

async function discover(deps: Deps, row: SsoConfigsTable): Promise<oidc.Configuration> {
  const issuer = new URL(row.issuer);
  const insecure = insecureIssuerAllowed(issuer);
  if (issuer.protocol !== 'https:' && !insecure) throw new Error('the SSO issuer must be an https URL (plain http only on localhost)');
  if (row.client_secret_ciphertext === null) throw new Error('no client secret is stored');
  const clientSecret = deps.secrets.decrypt(row.client_secret_ciphertext);
  const options: oidc.DiscoveryRequestOptions = { timeout: IDP_TIMEOUT_S, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) };
  const discovered = await oidc.discovery(issuer, row.client_id, undefined, undefined, options);
  const metadata = discovered.serverMetadata();
  // openid-client accepts Entra ID's multi-tenant endpoints (`common`, `organizations`), whose
  // issuer is the template `…/{tenantid}/v2.0`: any tenant's tokens would pass. One tenant only.
  if (metadata.issuer.includes('{tenantid}')) throw new Error('the SSO issuer is a multi-tenant Entra ID endpoint: use https://login.microsoftonline.com/<tenant-id>/v2.0');
  // The secret goes in the body unless the provider takes only HTTP Basic (RFC 8414's default).
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const auth = methods.includes('client_secret_post') || !methods.includes('client_secret_basic') ? oidc.ClientSecretPost(clientSecret) : oidc.ClientSecretBasic(clientSecret);
  const config = new oidc.Configuration(metadata, row.client_id, { client_secret: clientSecret }, auth);
  config.timeout = IDP_TIMEOUT_S;
  if (insecure) oidc.allowInsecureRequests(config);
  return config;
}

// ------------------------------------------------------------------ start

async function configuredOrg(deps: Deps, slug: string): Promise<{ orgId: string; row: SsoConfigsTable }> {
  const org = await findOrgBySlug(deps.store.db, slug);
  const row = org ? await findSsoConfig(deps.store.db, org.id) : undefined;
  if (!org || !row || row.client_secret_ciphertext === null) throw notFound('SSO configuration');
  return { orgId: org.id, row };
}

/**
 * Where to send the browser to sign in with the organization's provider, and the `Set-Cookie` of
 * the flow (state, nonce, PKCE verifier). 404 for an organization without SSO; a provider whose
 * discovery fails is an error (500, logged).
 */
export async function startSsoSignIn(deps: Deps, slug: string, origin: string): Promise<{ location: string; cookie: string }> {
  const { orgId, row } = await configuredOrg(deps, slug);
  let config: oidc.Configuration;
  try {
    config = await clientFor(deps, row);
  } catch (err) {
    deps.logger.error({ org: slug, issuer: row.issuer, err: describe(err) }, 'SSO identity provider could not be discovered');
    throw err;
  }
  const flow: SsoFlowState = { org: orgId, state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: ssoRedirectUri(origin, slug),
    response_type: 'code',
    scope: SSO_SCOPE,
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  const cookie = sealFlow(deps, SSO_FLOW_COOKIE, flow, SSO_FLOW_TTL_MS, { secure: origin.startsWith('https:'), path: SSO_FLOW_COOKIE_PATH });
  return { location: url.href, cookie };
}

// ------------------------------------------------------------------ callback

/** The email the provider vouches for, from the ID token or else its UserInfo endpoint. */
interface Identity {
  sub: string;
  email: string | undefined;
  emailVerified: unknown;
  hd: unknown;
}

/**
 * Whether an address the provider gives may be trusted. `email_verified: false` never is. Okta and
 * Google always send the claim, so its absence there is refused too; Entra ID never sends it (its
 * `email` is the directory's mail attribute, set by the tenant's administrators), and a generic
 * provider may not, so there its absence is accepted — the allowed domains still apply.
 */
export function emailTrusted(preset: SsoPreset, emailVerified: unknown): boolean {
  if (emailVerified === true) return true;
  if (emailVerified === undefined) return preset === 'entra_id' || preset === 'generic';
  return false;
}

/** Lower-cased domain of an address, or undefined when it is not one. */
const domainOf = (email: string): string | undefined => /^[^@\s]+@([^@\s]+)$/.exec(email.trim())?.[1]?.toLowerCase();

class Refused extends Error {
  constructor(readonly code: SsoFailure, message: string) {
    super(message);
  }
}

/**
 * What to log of an error: openid-client's message and that of its cause (oauth4webapi's, which
 * names the failed check), never the cause's payload (tokens, claims, response bodies).
 */
function describe(err: unknown): { message: string; code?: unknown } {
  if (!(err instanceof Error)) return { message: String(err) };
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  // An OAuth error answered by the provider (`invalid_grant`…) is named.
  const { error, code } = err as { error?: unknown; code?: unknown };
  return { message: `${err.message}${cause}${typeof error === 'string' ? ` (${error})` : ''}`, code };
}

/**
 * Finishes a sign-in: checks the flow cookie against this organization and the returned `state`,
 * lets openid-client exchange the code and check the ID token, then admits the email. On success,
 * in one transaction: the user (created if new), the membership (with the default role, audited
 * `member.joined`, when not yet a member) and the session. A refusal creates nothing.
 */
export async function finishSsoSignIn(
  deps: Deps,
  input: { slug: string; origin: string; querystring: string; query: Record<string, unknown>; cookieHeader: string | undefined; meta: RequestMeta },
): Promise<SsoCallbackOutcome> {
  const { orgId, row } = await configuredOrg(deps, input.slug);
  try {
    const flow = openFlow<SsoFlowState>(deps, input.cookieHeader, SSO_FLOW_COOKIE);
    if (!flow || flow.org !== orgId) throw new Refused('invalid_state', 'no SSO flow cookie of this organization (missing, expired, forged or another one)');
    if (typeof input.query.state !== 'string' || input.query.state !== flow.state) throw new Refused('invalid_state', 'the returned state is not the one sent');
    if (typeof input.query.error === 'string') throw new Refused('sso_denied', `the identity provider answered ${input.query.error}`);

    let identity: Identity;
    try {
      const config = await clientFor(deps, row);
      const currentUrl = new URL(`${ssoRedirectUri(input.origin, input.slug)}?${input.querystring}`);
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      // Belt and braces: the token's issuer is exactly the discovered one (no template).
      if (claims.iss !== config.serverMetadata().issuer) throw new Error(`unexpected ID token issuer ${claims.iss}`);
      identity = { sub: claims.sub, email: typeof claims.email === 'string' ? claims.email : undefined, emailVerified: claims.email_verified, hd: claims.hd };
      if (identity.email === undefined) {
        // Some providers put the email in UserInfo only; its `sub` must be the ID token's.
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        identity = { ...identity, email: typeof info.email === 'string' ? info.email : undefined, emailVerified: info.email_verified };
      }
    } catch (err) {
      throw new Refused('sso_failed', `code exchange or ID token check failed: ${describe(err).message}`);
    }

    const preset = row.preset as SsoPreset;
    if (!identity.email) throw new Refused('email_missing', 'the identity provider gave no email (scope `email` granted?)');
    if (!emailTrusted(preset, identity.emailVerified)) throw new Refused('email_not_verified', `email_verified is ${JSON.stringify(identity.emailVerified)}`);
    const allowed = JSON.parse(row.allowed_domains) as string[];
    const domain = domainOf(identity.email);
    if (!domain || !allowed.includes(domain)) throw new Refused('domain_not_allowed', `email domain ${domain ?? '(none)'} is not allowed`);
    // Google Workspace: `hd` names the Workspace account; personal Google accounts have none.
    if (preset === 'google_workspace' && (typeof identity.hd !== 'string' || !allowed.includes(identity.hd.toLowerCase()))) {
      throw new Refused('domain_not_allowed', `hosted domain (hd) ${JSON.stringify(identity.hd)} is not allowed`);
    }

    const role: Role = isRole(row.default_role) ? row.default_role : 'viewer';
    const admitted = await admit(deps, orgId, identity.email, role, input.meta).catch((err: unknown) => {
      // Two first sign-ins of the same new person racing: the loser's user or membership insert
      // hits the unique constraint; once more finds what the winner made.
      if (isUniqueViolation(err)) return admit(deps, orgId, identity.email!, role, input.meta);
      throw err;
    });
    deps.logger.info({ org: input.slug, userId: admitted.userId, joined: admitted.joined }, 'SSO sign-in');
    return { ok: true, ...admitted };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    deps.logger.warn({ org: input.slug, reason: err.code, detail: err.message }, 'SSO sign-in refused');
    return { ok: false, code: err.code };
  }
}

function admit(deps: Deps, orgId: string, email: string, role: Role, meta: RequestMeta): Promise<{ token: string; userId: string; joined: boolean }> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const user = await findOrCreateUser(trx, email);
    let joined = false;
    if (!(await findMemberByUser(trx, orgId, user.id))) {
      const at = nowIso();
      const member = { id: newId('mem'), org_id: orgId, user_id: user.id, role, invited_by: null, created_at: at, updated_at: at };
      await insertMember(trx, member);
      await insertAuditEntry(trx, dialect, { userId: user.id, ...meta }, {
        orgId, action: 'member.joined', resourceType: 'member', resourceId: member.id, details: { email: user.email, role, via: 'sso' },
      });
      joined = true;
    }
    const token = await startSession(trx, dialect, deps.config.webSessionIdleMs, { userId: user.id, method: 'sso', ...meta });
    return { token, userId: user.id, joined };
  });
}
