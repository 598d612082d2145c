/**
 * The server-rendered pages (docs/SIGN-IN.md, "Pages"): `/signin` and `/account`. They are HTML
 * for people, outside `/api/v1` and the contract, and act through the same services as the API.
 * Every form that changes something is checked against CSRF (csrf.ts); every page carries the
 * headers of html.ts; every value shown is escaped.
 */
import { bodyParser } from '@koa/bodyparser';
import Router, { type RouterContext } from '@koa/router';
import type { Actor } from '../audit/audit.repository.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys/api-keys.service.js';
import type { Principal } from '../auth/principal.js';
import { atLeast, isRole, ROLES } from '../auth/roles.js';
import { clearedSessionCookie, endSession, findSession, sessionPrincipal, sessionTokenOf, type WebSession } from '../auth/sessions.js';
import type { Deps } from '../deps.js';
import type { RateLimitTier } from '../http/operation.js';
import { clientIp, selfOrigin } from '../http/request-meta.js';
import { findOrgBySlug } from '../orgs/orgs.repository.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { AppError, forbidden, statusOf } from '../shared/errors.js';
import { findSsoConfig } from '../sign-in/sso-config.js';
import { requestMagicLink } from '../sign-in/magic-links.js';
import { secureCookies } from '../sign-in/redirects.js';
import { accountNotice, type AccountOrg, accountPage, type AccountView, KEYS_SHOWN, keyCreatedPage, messagePage } from './account-page.js';
import { fromThisSite } from '../http/request-meta.js';
import { CSRF_FIELD, csrfOk, csrfToken } from './csrf.js';
import { sendPage, setPageHeaders } from './html.js';
import { checkEmailPage, configuredOAuthProviders, signInErrorMessage, signInNotice, signInPage, ssoContinuePage } from './signin-page.js';

/** As ajv-formats' `email` (the API's `format: email`), so both entry points accept the same addresses. */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Control characters (NUL included: Postgres text cannot hold it) have no place in a key's name. */
const CONTROL = /[\u0000-\u001f\u007f]/;

type Ctx = RouterContext;

/** The pages' routes; `limiter` is the API's, with the same tiers and keys (`ip:…`, `user:…`). */
export function pageRoutes(deps: Deps, limiter: RateLimiter): Router {
  const router = new Router();
  const { db } = deps.store;
  const parseForm = bodyParser({ enableTypes: ['form'], formLimit: '16kb', encoding: 'utf-8' });
  const providers = configuredOAuthProviders(deps.config);

  const form = async (ctx: Ctx): Promise<Record<string, unknown>> => {
    await parseForm(ctx, async () => {});
    return ((ctx.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  };
  const field = (body: Record<string, unknown>, name: string): string | undefined => (typeof body[name] === 'string' ? body[name] : undefined);

  async function rateLimit(ctx: Ctx, tier: RateLimitTier, key: string): Promise<void> {
    const d = await limiter.consume(tier, key);
    if (!d.allowed) {
      ctx.set('Retry-After', String(d.retryAfter));
      throw new AppError('RATE_LIMITED', `Too many requests. Please wait ${d.retryAfter} seconds and try again.`);
    }
  }

  async function currentSession(ctx: Ctx): Promise<{ session: WebSession | null; hadCookie: boolean }> {
    const token = sessionTokenOf(ctx.get('cookie') || undefined);
    if (!token) return { session: null, hadCookie: false };
    return { session: await findSession(db, token, deps.config.webSessionIdleMs), hadCookie: true };
  }

  /** The signed-in session, or null after answering 303 to the sign-in page (clearing a dead cookie). */
  async function requireSession(ctx: Ctx): Promise<WebSession | null> {
    const { session, hadCookie } = await currentSession(ctx);
    if (session) return session;
    if (hadCookie) ctx.set('Set-Cookie', clearedSessionCookie(secureCookies(selfOrigin(ctx))));
    ctx.status = 303;
    ctx.redirect(hadCookie ? '/signin?error=session_ended' : '/signin');
    return null;
  }

  const actorOf = (ctx: Ctx, session: WebSession): Actor => ({
    userId: session.userId, ipAddress: clientIp(ctx, deps.config.trustProxy), userAgent: ctx.get('user-agent') || null,
  });

  /** The session's principal in an organization where it is admin; else a 403. */
  async function adminPrincipal(session: WebSession, slug: string): Promise<Principal> {
    let principal: Principal;
    try {
      principal = await sessionPrincipal(db, session, slug);
    } catch (err) {
      if (err instanceof AppError && err.code === 'VALIDATION_ERROR') throw forbidden('You are not a member of this organization.');
      throw err;
    }
    if (!atLeast(principal.role, 'admin')) throw forbidden('Only administrators of this organization manage its API keys.');
    return principal;
  }

  async function accountView(session: WebSession, extra: Partial<AccountView> = {}): Promise<AccountView> {
    const memberships = await db
      .selectFrom('members as m')
      .innerJoin('organizations as o', 'o.id', 'm.org_id')
      .select(['o.slug', 'o.name', 'm.role'])
      .where('m.user_id', '=', session.userId)
      .orderBy('o.slug')
      .execute();
    const orgs: AccountOrg[] = [];
    for (const m of memberships) {
      const org: AccountOrg = { slug: m.slug, name: m.name, role: m.role };
      if (m.role === 'admin') {
        const { keys, total } = await listApiKeys(deps, await sessionPrincipal(db, session, m.slug), { limit: KEYS_SHOWN, offset: 0 });
        org.keys = { items: keys, total };
      }
      orgs.push(org);
    }
    return { email: session.email, csrf: csrfToken(deps, session), orgs, ...extra };
  }

  /** A signed-in form's checks, in order: a session (else 303), CSRF (else 403), the rate limit. */
  async function signedInForm(ctx: Ctx): Promise<{ session: WebSession; body: Record<string, unknown> } | null> {
    const body = await form(ctx);
    const session = await requireSession(ctx);
    if (!session) return null;
    if (!csrfOk(deps, ctx, session, body[CSRF_FIELD])) {
      deps.logger.warn({ requestId: ctx.state.requestId, path: ctx.path, rule: 'csrf' }, 'page form refused: cross-site or without its token');
      throw forbidden('This form was not sent from this site, or its page is out of date. Go back to your account and try again.');
    }
    await rateLimit(ctx, 'write', `user:${session.userId}`);
    return { session, body };
  }

  router.get('/signin', page(async (ctx) => {
    const { session } = await currentSession(ctx);
    const error = typeof ctx.query.error === 'string' ? signInErrorMessage(ctx.query.error) : undefined;
    const notice = typeof ctx.query.notice === 'string' ? signInNotice(ctx.query.notice) : undefined;
    sendPage(ctx, 200, signInPage({ providers, error, notice, signedInAs: session?.email }));
  }));

  router.post('/signin', page(async (ctx) => {
    const body = await form(ctx);
    // No session is involved yet, but another site must not make this one send mail.
    if (!fromThisSite(ctx)) throw forbidden('This form was not sent from this site. Open the sign-in page and try again.');
    await rateLimit(ctx, 'strict', `ip:${clientIp(ctx, deps.config.trustProxy)}`);
    const email = (field(body, 'email') ?? '').trim();
    if (email.length > 320 || !EMAIL.test(email)) {
      return sendPage(ctx, 400, signInPage({ providers, email, emailError: 'Enter an email address, like name@example.com.' }));
    }
    await requestMagicLink(deps, email);
    sendPage(ctx, 200, checkEmailPage(email));
  }));

  router.get('/signin/sso', page(async (ctx) => {
    await rateLimit(ctx, 'read', `ip:${clientIp(ctx, deps.config.trustProxy)}`);
    const org = (typeof ctx.query.org === 'string' ? ctx.query.org : '').trim().toLowerCase();
    if (org.length < 2 || org.length > 63 || !SLUG.test(org)) {
      return sendPage(ctx, 400, signInPage({ providers, org, orgError: 'Enter the short name of your organization: lower-case letters, digits and dashes.' }));
    }
    const found = await findOrgBySlug(db, org);
    if (!found || !(await findSsoConfig(db, found.id))) {
      return sendPage(ctx, 404, signInPage({ providers, org, error: signInErrorMessage('sso_unavailable') }));
    }
    sendPage(ctx, 200, ssoContinuePage(org));
  }));

  router.get('/account', page(async (ctx) => {
    const session = await requireSession(ctx);
    if (!session) return;
    await rateLimit(ctx, 'read', `user:${session.userId}`);
    const notice = typeof ctx.query.notice === 'string' ? accountNotice(ctx.query.notice) : undefined;
    sendPage(ctx, 200, accountPage(await accountView(session, { notice })));
  }));

  router.post('/account/orgs/:slug/api-keys', page(async (ctx) => {
    const checked = await signedInForm(ctx);
    if (!checked) return;
    const { session, body } = checked;
    const principal = await adminPrincipal(session, ctx.params.slug!);
    const name = (field(body, 'name') ?? '').trim();
    const role = field(body, 'role') ?? 'author';
    const refuse = async (status: number, error: string) =>
      sendPage(ctx, status, accountPage(await accountView(session, { error, createForm: { slug: principal.orgSlug, name, role } })));
    if (name.length < 1 || name.length > 100 || CONTROL.test(name)) return refuse(400, 'Give the key a name of 1 to 100 characters.');
    if (!isRole(role)) return refuse(400, `Choose a role: ${ROLES.join(', ')}.`);
    let created;
    try {
      created = await createApiKey(deps, principal, actorOf(ctx, session), { name, role });
    } catch (err) {
      if (err instanceof AppError && err.code === 'VALIDATION_ERROR') return refuse(400, `The key was not created: ${err.message}`);
      throw err;
    }
    const org = (await findOrgBySlug(db, principal.orgSlug))!;
    sendPage(ctx, 201, keyCreatedPage({ key: created, org: { slug: org.slug, name: org.name }, csrf: csrfToken(deps, session) }));
  }));

  router.post('/account/orgs/:slug/api-keys/:id/revoke', page(async (ctx) => {
    const checked = await signedInForm(ctx);
    if (!checked) return;
    const { session } = checked;
    const principal = await adminPrincipal(session, ctx.params.slug!);
    try {
      await revokeApiKey(deps, principal, actorOf(ctx, session), ctx.params.id!);
    } catch (err) {
      if (err instanceof AppError && (err.code === 'CONFLICT' || err.code === 'NOT_FOUND')) {
        const error = err.code === 'CONFLICT' ? 'That API key was already revoked.' : 'There is no such API key in this organization.';
        return sendPage(ctx, statusOf[err.code], accountPage(await accountView(session, { error })));
      }
      throw err;
    }
    ctx.status = 303;
    ctx.redirect('/account?notice=key_revoked');
  }));

  router.post('/account/sign-out', page(async (ctx) => {
    const checked = await signedInForm(ctx);
    if (!checked) return;
    const { session } = checked;
    await db.transaction().execute((trx) => endSession(trx, deps.store.dialect, session, actorOf(ctx, session)));
    ctx.set('Set-Cookie', clearedSessionCookie(secureCookies(selfOrigin(ctx))));
    ctx.status = 303;
    ctx.redirect('/signin?notice=signed_out');
  }));

  /**
   * Wraps a page handler: the pages' headers on every answer, and any refusal or failure rendered
   * as a page (never the API's JSON envelope). Unexpected errors are logged and shown as a 500.
   */
  function page(handler: (ctx: Ctx) => Promise<void>) {
    return async (ctx: Ctx) => {
      setPageHeaders(ctx);
      try {
        await handler(ctx);
      } catch (err) {
        const back = ctx.path.startsWith('/signin') ? { href: '/signin', text: 'Back to sign-in' } : undefined;
        const status = err instanceof AppError ? statusOf[err.code] : formError(err);
        if (status === undefined) {
          deps.logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'page failed');
          return sendPage(ctx, 500, messagePage('Something went wrong', `The server could not complete this request. If it keeps happening, report request ID ${String(ctx.state.requestId)}.`, back));
        }
        const message = err instanceof AppError ? err.message : 'The form could not be read. Please go back and try again.';
        sendPage(ctx, status, messagePage(titles[status] ?? 'Request refused', message, back));
      }
    };
  }

  return router;
}

const titles: Record<number, string> = { 400: 'Please check the form', 403: 'Request refused', 404: 'Not found', 409: 'Already done', 429: 'Too many requests' };

/** The status of a body parser's refusal (too large, unreadable), or undefined for anything else. */
function formError(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? 400 : undefined;
}
