import type { Readable } from 'node:stream';
import type { Middleware } from 'koa';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Document, OpenAPIBackend } from 'openapi-backend';
import { authenticateApiKey } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { atLeast } from '../auth/roles.js';
import type { Deps } from '../deps.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { AppError, forbidden, invalid, unauthorized } from '../shared/errors.js';
import { findSession, sessionPrincipal, sessionTokenOf, type WebSession } from '../auth/sessions.js';
import { contractBackend, type OpenApiDocument } from './contract.js';
import type { Operation, OperationResult, PublicOperation, RateLimitTier } from './operation.js';
import { clientIp, fromThisSite } from './request-meta.js';
import { validationError } from './validation-errors.js';


interface ApiState {
  principal?: Principal;
  /** Set by app.ts when the body could not be read; thrown once the caller is authenticated. */
  bodyError?: AppError;
}

/**
 * Routes /api/v1 requests by operationId: authenticate, rate-limit, validate against the contract
 * (openapi-backend's validators), check the role, run the operation. Every step that refuses
 * throws an AppError, which the error middleware turns into the envelope.
 */
export async function createApiMiddleware(
  deps: Deps,
  document: OpenApiDocument,
  operations: Record<string, Operation | PublicOperation>,
  rateLimiter: RateLimiter,
): Promise<Middleware> {
  const api = await contractBackend(document, { forRequests: true });
  // Compiles every operation's request validators now, so a broken schema fails start-up.
  api.validator.preCompileRequestValidators();

  // Every documented operation is served, and every handler is documented.
  const documented = api.getOperations().map((o) => o.operationId!);
  for (const id of Object.keys(operations)) {
    if (!documented.includes(id)) throw new Error(`handler ${id} has no operation in openapi.yaml`);
  }
  const missing = documented.filter((id) => !operations[id]);
  if (missing.length) throw new Error(`openapi.yaml operations without a handler: ${missing.join(', ')}`);

  const securityHandlers: Record<string, SecurityHandler> = {
    bearerAuth: async (ctx) => {
      const principal = await authenticateApiKey(deps.store.db, ctx.get('authorization') || undefined);
      if (principal) ctx.state.principal = principal;
      return principal ?? false;
    },
    // A valid session cookie; the organization it acts in is resolved per operation (X-Lemma-Org).
    sessionCookie: async (ctx) => {
      const token = sessionTokenOf(ctx.get('cookie') || undefined);
      if (!token) return false;
      const session = await findSession(deps.store.db, token, deps.config.webSessionIdleMs);
      if (!session) throw unauthorized('Your session has ended: sign in again');
      ctx.state.session = session;
      return session;
    },
  };
  const router = compileRoutes(api);

  return async (ctx: KoaCtx) => {
    const match = router.match(ctx.method, ctx.path);
    if (!match) throw new AppError('NOT_FOUND', `No operation at ${ctx.method} ${ctx.path}`);
    const { route } = match;
    // Present: start-up checked that every operation of the contract has a handler.
    const op = operations[route.operationId]!;

    const security = await authenticate(ctx, route, securityHandlers);
    const session: WebSession | undefined = ctx.state.session;
    let principal: Principal | undefined = ctx.state.principal;
    const tier: RateLimitTier = op.tier ?? (route.method === 'get' ? 'read' : 'write');
    const key = principal?.rateLimitKey ?? (session ? `user:${session.userId}` : `ip:${clientIp(ctx, deps.config.trustProxy)}`);
    const d = await rateLimiter.consume(tier, key);
    ctx.set('X-RateLimit-Limit', String(d.limit));
    ctx.set('X-RateLimit-Remaining', String(d.remaining));
    if (!d.allowed) {
      ctx.set('Retry-After', String(d.retryAfter));
      throw new AppError('RATE_LIMITED', `Too many requests: retry in ${d.retryAfter} s`, { retryAfterSeconds: d.retryAfter });
    }
    // Refusals come in this order, each with the rate-limit headers: 429, 401, then a body
    // that could not be read (see app.ts), then the contract's validation.
    if (!security.authorized) throw authFailure(security.results);
    if (ctx.state.bodyError) throw ctx.state.bodyError;
    const params = decodePathParams(match.params);
    const input = validateRequest(api, route, params, ctx);
    // A cookie rides along on cross-site requests: a change made with one must come from our own pages.
    if (session && !principal && !SAFE_METHODS.has(ctx.method) && !fromThisSite(ctx)) {
      throw forbidden('Cross-site request refused: a change made with a session cookie must come from this site', { rule: 'csrf' });
    }
    const meta = { ipAddress: clientIp(ctx, deps.config.trustProxy), userAgent: ctx.get('user-agent') || null };

    if ('access' in op) {
      const result = await op.run(deps, { session: session ?? null, ...meta, params, query: input.query, body: input.body, requestId: ctx.state.requestId as string, koa: ctx });
      return respond(ctx, result);
    }
    principal ??= await sessionPrincipal(deps.store.db, session!, ctx.get('x-lemma-org') || undefined);
    if (!atLeast(principal.role, op.minRole)) {
      throw forbidden(`This operation needs the ${op.minRole} role`, { requiredRole: op.minRole, role: principal.role });
    }
    if (op.permission && principal.apiKeyId && !principal.permissions.includes(op.permission)) {
      throw forbidden(`This API key lacks the ${op.permission} permission`, { requiredPermission: op.permission });
    }
    const result = await op.run(deps, {
      principal,
      actor: { userId: principal.userId, ...meta },
      params,
      query: input.query,
      body: input.body,
      requestId: ctx.state.requestId as string,
      koa: ctx,
    });
    respond(ctx, result);
  };
}

function respond(ctx: KoaCtx, result: OperationResult): void {
  // No body (204, redirects): an explicit null, or Koa would write its status text as one. Set
  // before the status: a null body set after it turns the status into 204.
  ctx.body = result.body === undefined ? null : (result.body as Readable | object);
  ctx.status = result.status;
  if (result.headers) ctx.set(result.headers);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);


/*
 * Per-request dispatch, precompiled from the contract.
 *
 * Why not `api.handleRequest()`: profiling GET /orgs/{slug}/members (docs/PERFORMANCE.md) showed
 * openapi-backend 5.21 redoing contract-only work on every request — rebuilding the list of all
 * operations through lodash (twice), compiling a RegExp per operation path to route, compiling
 * the path template again to read the parameters, and parsing the request four times — which
 * cost more than the database work. Here the routing table and each operation's security
 * requirements are built once at start-up, and each request is parsed once. The validation itself
 * is unchanged: the same Ajv validators, compiled by openapi-backend from the contract, run on the
 * same `{ path, query, header, cookie, requestBody }` object openapi-backend would build, so
 * coercion, defaults and error messages are identical. What this dispatcher does not implement
 * (query parameters with `content`, `explode: false`, cookie or header parameters) makes start-up
 * fail rather than be silently ignored.
 */

type SecurityHandler = (ctx: KoaCtx) => unknown;

/** What the dispatcher reads of an OpenAPI parameter object (the document is dereferenced). */
interface Parameter {
  name: string;
  in: string;
  content?: unknown;
  explode?: boolean;
  schema?: { type?: unknown };
}

interface Route {
  readonly operationId: string;
  readonly method: string;
  /** The operation's path template, e.g. `/orgs/{slug}/members`. */
  readonly path: string;
  readonly pattern: RegExp;
  readonly paramNames: readonly string[];
  /** Alternatives (any one suffices), each a list of schemes that must all pass. */
  readonly security: readonly (readonly string[])[];
  /** Every scheme named in `security`, each run once. */
  readonly schemes: readonly string[];
  /** Query parameters typed as arrays: a single value arrives as a string and is wrapped. */
  readonly arrayQueryParams: readonly string[];
  readonly validators: readonly ValidateFunction[];
}

const API_ROOT = '/api/v1';

/** Same rules as openapi-backend's router: exact path first, then templates by specificity; a path with no such method is a 404 too. */
function compileRoutes(api: OpenAPIBackend) {
  const definition = api.document as Document;
  const routes = api.getOperations().map((op): Route => {
    const parameters = (op.parameters ?? []) as Parameter[];
    for (const p of parameters) {
      if (p.in === 'cookie' || p.in === 'header' || p.content || p.explode === false) {
        throw new Error(`${op.operationId}: parameter ${p.name} (${p.in}) uses a feature http/api.ts does not dispatch; extend it`);
      }
    }
    const security = ((op.security ?? definition.security ?? []) as Record<string, unknown>[]).map((req) => Object.keys(req));
    return {
      operationId: op.operationId!,
      method: op.method,
      path: op.path,
      pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '\0').split('\0').map(escapeRegExp).join('([^/]+)')}$`),
      paramNames: [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
      security,
      schemes: [...new Set(security.flat())],
      arrayQueryParams: parameters.filter((p) => p.in === 'query' && p.schema?.type === 'array').map((p) => p.name),
      validators: api.validator.getRequestValidatorsForOperation(op.operationId!),
    };
  });
  const exact = new Map<string, Route>();
  for (const r of routes) if (!exact.has(`${r.method} ${r.path}`)) exact.set(`${r.method} ${r.path}`, r);
  // Stable sort: equally specific templates keep document order.
  const templates = [...routes].sort((a, b) => b.path.replace(/\{.*?\}/g, '').length - a.path.replace(/\{.*?\}/g, '').length);

  return {
    match(rawMethod: string, rawPath: string): { route: Route; params: Record<string, string> } | undefined {
      const method = rawMethod.trim().toLowerCase();
      let path = rawPath.trim();
      if (path === API_ROOT) path = '/';
      else if (path.startsWith(`${API_ROOT}/`)) path = path.slice(API_ROOT.length);
      else return undefined;
      while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);

      const exactRoute = exact.get(`${method} ${path}`);
      for (const route of exactRoute ? [exactRoute] : templates) {
        if (route.method !== method) continue;
        const values = route.pattern.exec(path);
        if (!values) continue;
        const params: Record<string, string> = {};
        // Still percent-encoded: decoded after authentication and rate limiting (a bad escape is a 400).
        route.paramNames.forEach((name, i) => (params[name] = values[i + 1]!));
        return { route, params };
      }
      return undefined;
    },
  };
}

/**
 * Runs the security handler of each scheme the operation names (a handler that throws has failed,
 * its error kept); authorized when every scheme of at least one alternative passed.
 */
async function authenticate(ctx: KoaCtx, route: Route, handlers: Record<string, SecurityHandler>) {
  const results: Record<string, unknown> = {};
  for (const scheme of route.schemes) {
    try {
      results[scheme] = handlers[scheme] ? await handlers[scheme](ctx) : undefined;
    } catch (error) {
      results[scheme] = { error: error || new Error('security handler rejected') };
    }
  }
  const passed = (r: unknown) => Boolean(r) && !(typeof r === 'object' && (r as { error?: unknown }).error);
  // `security: []` (sign-in) needs nothing; otherwise one alternative must pass entirely.
  const authorized = route.security.length === 0 || route.security.some((schemes) => schemes.every((s) => passed(results[s])));
  return { results, authorized };
}

/**
 * The contract's request validation, as openapi-backend's `validateRequest` does it: the query
 * parsed with `qs`, one object with the path parameters, query, headers and cookies (and the body
 * when there is one), every validator of the operation run on it. Ajv coerces the path and query
 * in place and fills defaults (also into the body).
 */
function validateRequest(api: OpenAPIBackend, route: Route, params: Record<string, string>, ctx: KoaCtx) {
  const body = (ctx.request as { body?: unknown }).body;
  const query = api.router.parseRequestQuery({ method: ctx.method, path: ctx.path, query: ctx.querystring, headers: {} }) as Record<string, unknown>;
  for (const name of route.arrayQueryParams) {
    if (typeof query[name] === 'string') query[name] = [query[name]];
  }
  const parameters: Record<string, unknown> = {
    // A copy: coercion must not change the (string) params handed to the operation.
    path: { ...params },
    query,
    header: { ...ctx.headers },
    // No operation declares cookie parameters (checked at start-up): nothing to validate in them.
    cookie: {},
  };
  const contentType = ctx.get('content-type').split(';')[0]!.trim().toLowerCase();
  if (typeof body === 'object' || contentType === 'application/json') parameters.requestBody = body;
  const errors: ErrorObject[] = [];
  for (const validate of route.validators) {
    if (!validate(parameters)) errors.push(...(validate.errors ?? []));
  }
  if (errors.length) throw validationError(errors);
  const nul = nulCharacterPath(body, '');
  if (nul !== null) throw invalid(nul || 'body', 'must not contain the NUL character (U+0000)');
  return { query, body };
}

/**
 * The dotted path of the first string holding U+0000, or null. Postgres text cannot store it,
 * so it is refused on both databases alike.
 */
function nulCharacterPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nulCharacterPath(item, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found !== null) return found;
    if (key.includes('\u0000')) return path ? `${path}.${key}` : key;
  }
  return null;
}

/** A malformed percent-escape in a path parameter is the client's error, not ours. */
function decodePathParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw new AppError('VALIDATION_ERROR', `${name}: is not valid percent-encoding`, { field: name, issue: 'is not valid percent-encoding' });
    }
  }
  return params;
}

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type KoaCtx = Parameters<Middleware>[0] & { state: ApiState & Record<string, unknown> };

/** The bearer handler's own 401 (unknown, revoked, expired…) or the generic one. */
function authFailure(results: Record<string, unknown>): AppError {
  for (const scheme of ['bearerAuth', 'sessionCookie']) {
    const failure = (results[scheme] as { error?: unknown } | undefined)?.error;
    if (failure instanceof AppError) return failure;
  }
  return unauthorized();
}
