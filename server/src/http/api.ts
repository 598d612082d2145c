import type { Readable } from 'node:stream';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import type { Middleware } from 'koa';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type Context as ApiContext, type Document, OpenAPIBackend } from 'openapi-backend';
import { authenticateApiKey } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { atLeast } from '../auth/roles.js';
import type { Deps } from '../deps.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { AppError, forbidden, unauthorized } from '../shared/errors.js';
import type { OpenApiDocument } from './contract.js';
import type { Operation, RateLimitTier } from './operation.js';
import { precompileRouting } from './precompiled-routing.js';
import { clientIp } from './request-meta.js';
import { validationError } from './validation-errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Operations of later issues: in the contract, answered 501 until their feature lands. */
export type NotImplemented = readonly string[];

interface ApiState {
  principal?: Principal;
  /** Set by app.ts when the body could not be read; thrown once the caller is authenticated. */
  bodyError?: AppError;
}

/**
 * Routes /api/v1 requests by operationId through openapi-backend: authenticate, rate-limit,
 * validate against the contract, check the role, run the operation. Every step that refuses
 * throws an AppError, which the error middleware turns into the envelope.
 */
export async function createApiMiddleware(
  deps: Deps,
  document: OpenApiDocument,
  operations: Record<string, Operation>,
  notImplemented: NotImplemented,
  rateLimiter: RateLimiter,
): Promise<Middleware> {
  const api = new OpenAPIBackend({
    definition: await dereferenced(document),
    apiRoot: '/api/v1',
    strict: true,
    // Quick: validators compile on demand (response validators are for tests, not the server);
    // request validators are compiled below, so a broken schema still fails start-up.
    quick: true,
    validate: true,
    coerceTypes: true,
    customizeAjv: (_ajv, opts) => addFormats(new Ajv2020({ ...opts, strict: false, useDefaults: true, allErrors: false })) as never,
  });
  // openapi-backend checks definitions against the 3.0 schema; the 3.1 document is linted by Redocly.
  api.validateDefinition = () => api.document;

  api.registerSecurityHandler('bearerAuth', (_c: ApiContext, ctx: KoaCtx) =>
    authenticateApiKey(deps.store.db, ctx.get('authorization') || undefined).then((p) => {
      if (p) ctx.state.principal = p;
      return p ?? false;
    }),
  );
  // Web sessions arrive with issue 7 (sign-in); until then a cookie authenticates nobody.
  api.registerSecurityHandler('sessionCookie', () => false);

  api.register({
    postSecurityHandler: async (c: ApiContext, ctx: KoaCtx) => {
      const principal = ctx.state.principal;
      const op = operations[c.operation.operationId!];
      const tier: RateLimitTier = op?.tier ?? (c.request.method.toLowerCase() === 'get' ? 'read' : 'write');
      const key = principal?.rateLimitKey ?? `ip:${clientIp(ctx, deps.config.trustProxy)}`;
      const d = await rateLimiter.consume(tier, key);
      ctx.set('X-RateLimit-Limit', String(d.limit));
      ctx.set('X-RateLimit-Remaining', String(d.remaining));
      if (!d.allowed) {
        ctx.set('Retry-After', String(d.retryAfter));
        throw new AppError('RATE_LIMITED', `Too many requests: retry in ${d.retryAfter} s`, { retryAfterSeconds: d.retryAfter });
      }
      // Refusals come in this order, each with the rate-limit headers: 429, 401, then a body
      // that could not be read (see app.ts), then the contract's validation.
      if (!c.security?.authorized) throw authFailure(c);
      if (ctx.state.bodyError) throw ctx.state.bodyError;
    },
    unauthorizedHandler: (c: ApiContext) => {
      throw authFailure(c);
    },
    validationFail: (c: ApiContext) => {
      throw validationError(c.validation.errors ?? []);
    },
    notFound: (_c: ApiContext, ctx: KoaCtx) => {
      throw new AppError('NOT_FOUND', `No operation at ${ctx.method} ${ctx.path}`);
    },
    methodNotAllowed: (_c: ApiContext, ctx: KoaCtx) => {
      throw new AppError('NOT_FOUND', `No operation at ${ctx.method} ${ctx.path}`);
    },
  });

  for (const [operationId, op] of Object.entries(operations)) {
    api.register(operationId, async (c: ApiContext, ctx: KoaCtx) => {
      const principal = ctx.state.principal!;
      if (!atLeast(principal.role, op.minRole)) {
        throw forbidden(`This operation needs the ${op.minRole} role`, { requiredRole: op.minRole, role: principal.role });
      }
      if (op.permission && principal.apiKeyId && !principal.permissions.includes(op.permission)) {
        throw forbidden(`This API key lacks the ${op.permission} permission`, { requiredPermission: op.permission });
      }
      const result = await op.run(deps, {
        principal,
        actor: { userId: principal.userId, ipAddress: clientIp(ctx, deps.config.trustProxy), userAgent: ctx.get('user-agent') || null },
        params: c.request.params as Record<string, string>,
        query: c.request.query as Record<string, unknown>,
        body: c.request.requestBody,
        requestId: ctx.state.requestId as string,
        koa: ctx,
      });
      ctx.status = result.status;
      if (result.headers) ctx.set(result.headers);
      ctx.body = result.body as Readable | object;
    });
  }
  for (const id of notImplemented) {
    api.register(id, () => {
      throw new AppError('NOT_IMPLEMENTED', `${id} is not implemented yet`, { operationId: id });
    });
  }
  await api.init();
  precompileRouting(api.router);
  api.validator.preCompileRequestValidators();

  // Every documented operation is served (or declared 501), and every handler is documented.
  const documented = api.getOperations().map((o) => o.operationId!);
  for (const id of notImplemented) {
    if (!documented.includes(id)) throw new Error(`not-implemented operation ${id} is not in openapi.yaml`);
  }
  for (const id of Object.keys(operations)) {
    if (!documented.includes(id)) throw new Error(`handler ${id} has no operation in openapi.yaml`);
  }
  const missing = documented.filter((id) => !operations[id] && !notImplemented.includes(id));
  if (missing.length) throw new Error(`openapi.yaml operations without a handler: ${missing.join(', ')}`);

  return async (ctx) => {
    await api.handleRequest(
      { method: ctx.method, path: ctx.path, query: ctx.querystring, headers: ctx.headers as Record<string, string>, body: (ctx.request as { body?: unknown }).body },
      ctx,
    );
  };
}

type KoaCtx = Parameters<Middleware>[0] & { state: ApiState & Record<string, unknown> };

/** The bearer handler's own 401 (unknown, revoked, expired…) or the generic one. */
function authFailure(c: ApiContext): AppError {
  const failure = (c.security?.bearerAuth as { error?: unknown } | undefined)?.error;
  return failure instanceof AppError ? failure : unauthorized();
}

/**
 * The contract with every `$ref` replaced by its own copy of the target. openapi-backend's
 * response validator turns objects shared between places into JSON-pointer `$ref`s that Ajv then
 * rejects (`enum must be array`), so no two places may share an object.
 */
async function dereferenced(document: OpenApiDocument): Promise<Document> {
  const resolved = await $RefParser.dereference(structuredClone(document) as never);
  return JSON.parse(JSON.stringify(resolved)) as Document;
}
