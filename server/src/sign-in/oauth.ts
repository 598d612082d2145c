/**
 * Sign-in with OAuth providers (GitHub, Google, LinkedIn): arctic's generic `OAuth2Client` makes
 * the authorization URL (state, S256 challenge) for each provider's real endpoints, unless the
 * config points elsewhere (docs/SIGN-IN.md § OAuth providers).
 *
 * The start keeps `state`, the PKCE verifier (GitHub and Google; LinkedIn web apps have no PKCE)
 * and the redirect URI in a 10-minute encrypted cookie; the callback checks and clears it,
 * exchanges the code, reads the account's subject and email, and signs in:
 * - a provider account linked before (`user_identities`) signs in its user;
 * - else an email the provider vouches for that belongs to a user links the account to that user;
 * - else it is refused: `no_account` (an address nobody has), `email_not_verified`.
 * Nothing is written before every check has passed.
 */
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client, OAuth2RequestError, OAuth2Tokens } from 'arctic';
import { sessionCookie, startSession } from '../auth/sessions.js';
import type { OAuthProviderConfig, OAuthProviderName } from '../config.js';
import type { Deps } from '../deps.js';
import type { OperationResult } from '../http/operation.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/ids.js';
import { clearFlow, openFlow, sealFlow } from './flow-cookie.js';
import { secureCookies, seeOther, signInFailed } from './redirects.js';

export const OAUTH_FLOW_TTL_MS = 10 * 60 * 1000;

/** What differs between providers beyond their endpoints. */
interface ProviderTraits {
  scopes: string[];
  pkce: boolean;
  /** The account behind an access token. */
  profile: (deps: Deps, cfg: OAuthProviderConfig, accessToken: string) => Promise<Profile>;
}

/** A provider account: its stable id, and an email with whether the provider has verified it. */
export interface Profile {
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

const TRAITS: Record<OAuthProviderName, ProviderTraits> = {
  // PKCE for OAuth and GitHub apps since July 2025 (S256 only). The email is the primary one of
  // GET /user/emails, which says whether GitHub verified it.
  github: { scopes: ['read:user', 'user:email'], pkce: true, profile: githubProfile },
  // Google's OpenID userinfo (`sub`, `email`, `email_verified`).
  google: { scopes: ['openid', 'email'], pkce: true, profile: userinfoProfile },
  // LinkedIn's OpenID userinfo; PKCE is for its native apps only.
  linkedin: { scopes: ['openid', 'email'], pkce: false, profile: userinfoProfile },
};

export const isOAuthProvider = (name: string): name is OAuthProviderName => Object.hasOwn(TRAITS, name);

/** The flow cookie: one per provider, sent to that provider's callback only. */
const flowCookie = (provider: OAuthProviderName) => ({ name: `lemma_oauth_${provider}`, path: `/api/v1/auth/oauth/${provider}` });

interface FlowData {
  state: string;
  codeVerifier: string | null;
  redirectUri: string;
}

function configured(deps: Deps, provider: string): { name: OAuthProviderName; cfg: OAuthProviderConfig; traits: ProviderTraits } {
  const cfg = isOAuthProvider(provider) ? deps.config.oauth.providers[provider] : undefined;
  if (!cfg) throw notFound('OAuth provider', { provider });
  return { name: provider as OAuthProviderName, cfg, traits: TRAITS[provider as OAuthProviderName] };
}

/** This server's base address for the redirect URI: LEMMA_PUBLIC_URL, else where the request came. */
function baseUrl(deps: Deps, origin: string): string {
  return (deps.config.publicUrlSet ? deps.config.publicUrl : origin).replace(/\/+$/, '');
}

/** `GET /auth/oauth/{provider}/start`: 302 to the provider, the flow sealed in a cookie. */
export function startOAuth(deps: Deps, provider: string, origin: string): OperationResult {
  const { name, cfg, traits } = configured(deps, provider);
  const redirectUri = `${baseUrl(deps, origin)}/api/v1/auth/oauth/${name}/callback`;
  const client = new OAuth2Client(cfg.clientId, cfg.clientSecret, redirectUri);
  const state = generateState();
  const codeVerifier = traits.pkce ? generateCodeVerifier() : null;
  const url = codeVerifier
    ? client.createAuthorizationURLWithPKCE(cfg.authorizeUrl, state, CodeChallengeMethod.S256, codeVerifier, traits.scopes)
    : client.createAuthorizationURL(cfg.authorizeUrl, state, traits.scopes);
  const { name: cookieName, path } = flowCookie(name);
  const cookie = sealFlow(deps, cookieName, { state, codeVerifier, redirectUri } satisfies FlowData, OAUTH_FLOW_TTL_MS, { secure: secureCookies(origin), path });
  return { status: 302, body: undefined, headers: { Location: url.toString(), 'Set-Cookie': cookie } };
}

/**
 * An empty body: with none at all, Koa writes the status text ("See Other") as one, and the
 * contract documents redirects without content.
 */
const withoutBody = (result: OperationResult): OperationResult => ({ ...result, body: result.body ?? '' });

export interface CallbackInput {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  cookieHeader: string | undefined;
  origin: string;
  userAgent: string | null;
  ipAddress: string | null;
}

/** The `error` of a callback when the user said no (LinkedIn has its own). */
const DECLINED = new Set(['access_denied', 'user_cancelled_login', 'user_cancelled_authorize']);

/** Why a sign-in was refused: the `error` of `/signin?error=…`. */
class Refused extends Error {
  constructor(readonly code: string, reason: string) {
    super(reason);
  }
}

/**
 * `GET /auth/oauth/{provider}/callback`: 303 to `/account` with a session cookie, or to
 * `/signin?error=<code>`. The flow cookie is cleared either way.
 */
export async function finishOAuth(deps: Deps, provider: string, input: CallbackInput): Promise<OperationResult> {
  const { name, cfg, traits } = configured(deps, provider);
  const { name: cookieName, path } = flowCookie(name);
  const secure = secureCookies(input.origin);
  const cleared = clearFlow(cookieName, { secure, path });
  try {
    const flow = openFlow<FlowData>(deps, input.cookieHeader, cookieName);
    if (!flow) throw new Refused('invalid_state', 'no valid flow cookie');
    if (!input.state || input.state !== flow.state) throw new Refused('invalid_state', 'state does not match the flow cookie');
    if (input.error !== undefined) throw new Refused(DECLINED.has(input.error) ? 'oauth_denied' : 'oauth_failed', `the provider answered error=${input.error}`);
    if (!input.code) throw new Refused('oauth_failed', 'no code');

    const accessToken = await exchangeCode(deps, cfg, input.code, flow);
    const profile = await traits.profile(deps, cfg, accessToken).catch((err: unknown) => {
      throw new Refused('oauth_failed', `profile: ${err instanceof Error ? err.message : String(err)}`);
    });
    const token = await signInWith(deps, `oauth:${name}`, profile, input);
    return withoutBody(seeOther('/account', [cleared, sessionCookie(token, secure)]));
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    deps.logger.info({ provider: name, refused: err.code, reason: err.message }, 'OAuth sign-in refused');
    return withoutBody(signInFailed(err.code, [cleared]));
  }
}

/**
 * The authorization code exchanged for an access token (RFC 6749 §4.1.3). Made here rather than
 * with arctic's `validateAuthorizationCode`, which has no timeout and sends the secret only as
 * HTTP Basic: the client id and secret go in the body (`client_secret_post`), as each of the three
 * documents it (LinkedIn takes nothing else). The answer is read with arctic's `OAuth2Tokens`.
 */
async function exchangeCode(deps: Deps, cfg: OAuthProviderConfig, code: string, flow: FlowData): Promise<string> {
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: flow.redirectUri, client_id: cfg.clientId, client_secret: cfg.clientSecret });
  if (flow.codeVerifier) body.set('code_verifier', flow.codeVerifier);
  // Accept: GitHub answers form-encoded without it.
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'User-Agent': 'lemma' };
  try {
    const res = await fetch(cfg.tokenUrl, { method: 'POST', headers, body: body.toString(), signal: AbortSignal.timeout(deps.config.oauth.timeoutMs), redirect: 'error' });
    const data: unknown = await res.json().catch(() => null);
    if (typeof data !== 'object' || data === null) throw new Error(`token endpoint answered ${res.status} without a JSON object`);
    // GitHub reports errors with 200; the others with 400/401.
    if ('error' in data && typeof data.error === 'string') {
      const description = 'error_description' in data && typeof data.error_description === 'string' ? data.error_description : null;
      throw new OAuth2RequestError(data.error, description, null, null);
    }
    if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}`);
    return new OAuth2Tokens(data).accessToken();
  } catch (err) {
    const reason = err instanceof OAuth2RequestError ? `token endpoint: ${err.code}${err.description ? ` (${err.description})` : ''}` : `token endpoint: ${err instanceof Error ? err.message : String(err)}`;
    throw new Refused('oauth_failed', reason);
  }
}

/** A GET with the access token, answered with JSON, within the timeout. */
async function getJson(deps: Deps, url: string, accessToken: string, accept = 'application/json', extra: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: accept, 'User-Agent': 'lemma', ...extra },
    signal: AbortSignal.timeout(deps.config.oauth.timeoutMs),
    redirect: 'error',
  });
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new Error(`${new URL(url).pathname} answered ${res.status}`);
  }
  return res.json();
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** GitHub: the user's numeric id, and their primary email with its verification. */
async function githubProfile(deps: Deps, cfg: OAuthProviderConfig, accessToken: string): Promise<Profile> {
  const headers = { 'X-GitHub-Api-Version': '2022-11-28' };
  const [user, emails] = await Promise.all([
    getJson(deps, `${cfg.apiUrl}/user`, accessToken, 'application/vnd.github+json', headers),
    getJson(deps, `${cfg.apiUrl}/user/emails`, accessToken, 'application/vnd.github+json', headers),
  ]);
  if (!isObject(user) || (typeof user.id !== 'number' && typeof user.id !== 'string')) throw new Error('GET /user has no id');
  if (!Array.isArray(emails)) throw new Error('GET /user/emails is not a list');
  const primary = emails.find((e): e is Record<string, unknown> => isObject(e) && e.primary === true && typeof e.email === 'string');
  return { subject: String(user.id), email: (primary?.email as string | undefined) ?? null, emailVerified: primary?.verified === true };
}

/** Google, LinkedIn: OpenID Connect userinfo (`sub`, `email`, `email_verified`). */
async function userinfoProfile(deps: Deps, cfg: OAuthProviderConfig, accessToken: string): Promise<Profile> {
  const info = await getJson(deps, cfg.apiUrl, accessToken);
  if (!isObject(info) || typeof info.sub !== 'string' || info.sub === '') throw new Error('userinfo has no sub');
  return {
    subject: info.sub,
    email: typeof info.email === 'string' ? info.email : null,
    // A boolean per OpenID Connect; some endpoints have sent the string "true".
    emailVerified: info.email_verified === true || info.email_verified === 'true',
  };
}

/**
 * The user this provider account stands for, linked if it is new, and a session for them — in
 * one transaction. Refused (nothing written) when the account is new and its email is not
 * verified or belongs to nobody.
 */
async function signInWith(deps: Deps, provider: string, profile: Profile, meta: { userAgent: string | null; ipAddress: string | null }): Promise<string> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    let userId = (await trx.selectFrom('user_identities').select('user_id').where('provider', '=', provider).where('subject', '=', profile.subject).executeTakeFirst())?.user_id;
    if (userId === undefined) {
      if (!profile.email || !profile.emailVerified) throw new Refused('email_not_verified', `account ${profile.subject} has no verified email`);
      const email = profile.email.trim().toLowerCase();
      const user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (!user) throw new Refused('no_account', `no user has the verified email of account ${profile.subject}`);
      // A concurrent callback for the same account may have linked it first: its row stands.
      await trx.insertInto('user_identities')
        .values({ provider, subject: profile.subject, user_id: user.id, email, created_at: nowIso() })
        .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
        .execute();
      userId = (await trx.selectFrom('user_identities').select('user_id').where('provider', '=', provider).where('subject', '=', profile.subject).executeTakeFirstOrThrow()).user_id;
    }
    return startSession(trx, dialect, deps.config.webSessionIdleMs, { userId, method: provider, ...meta });
  });
}
