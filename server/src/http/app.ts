import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { Deps } from '../deps.js';
import { operations } from '../operations.js';
import { createRateLimiter } from '../rate-limit/rate-limiter.js';
import { createApiMiddleware } from './api.js';
import { loadContract, type OpenApiDocument } from './contract.js';
import { docsAndHealthRoutes } from './docs-routes.js';
import { pageRoutes } from '../pages/pages-routes.js';
import { asBodyError, errorsMiddleware, requireJsonBody } from './errors-middleware.js';
import { requestId } from './request-meta.js';

/** The Koa app as a value: build it in a test without listening on a port. */
export async function buildApp(deps: Deps, document: OpenApiDocument = loadContract()): Promise<Koa> {
  const app = new Koa({ proxy: deps.config.trustProxy });
  // One limiter for the API and the pages: a user's budget is the same wherever they spend it.
  const rateLimiter = createRateLimiter(deps.config.rateLimit, deps.store);
  const api = await createApiMiddleware(deps, document, operations, rateLimiter);
  const routes = docsAndHealthRoutes(document, deps.store);
  const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: deps.config.bodyLimitBytes, encoding: 'utf-8' });

  // Only errors after the response started (a failing download stream) get here.
  app.on('error', (err: unknown, ctx?: Koa.Context) => deps.logger.error({ err, requestId: ctx?.state.requestId }, 'response failed'));
  app.use(requestId);
  app.use(accessLog(deps));
  app.use(errorsMiddleware(deps.logger, deps.config.bodyLimitBytes));
  // API calls are answered before the docs router, which serves only openapi.json under /api/v1/:
  // matching its routes (and the Host header) on every call showed in the profile (docs/PERFORMANCE.md).
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/api/v1/') || ctx.path === '/api/v1/openapi.json') return next();
    try {
      await requireJsonBody(ctx, () => parseJson(ctx, async () => {}));
    } catch (err) {
      // Reported after authentication and rate limiting, so the refusal carries their headers.
      ctx.state.bodyError = asBodyError(err, deps.config.bodyLimitBytes);
    }
    await api(ctx, next);
  });
  app.use(routes.routes());
  app.use(pageRoutes(deps, rateLimiter).routes()); // /signin, /account: HTML pages (server/src/pages)
  return app;
}

/** One structured line per request (never bodies or credentials). */
function accessLog(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      if (deps.logger.isLevelEnabled('info')) {
        deps.logger.info(
          { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
          'request',
        );
      }
    }
  };
}
