import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError, statusOf } from '../shared/errors.js';

function envelope(err: AppError) {
  return { error: { code: err.code, message: err.message, details: err.details } };
}

/** A failure to read the request body as our VALIDATION_ERROR; anything else is rethrown. */
export function asBodyError(err: unknown, bodyLimit: number): AppError {
  if (err instanceof AppError) return err;
  const mapped = clientError(err as Record<string, never>, bodyLimit);
  if (!mapped) throw err;
  return mapped;
}

/** Koa/bodyparser errors that are the client's fault, as our VALIDATION_ERROR. */
function clientError(err: { status?: number; type?: string; message?: string }, bodyLimit: number): AppError | undefined {
  if (err.status === 413 || err.type === 'entity.too.large') {
    return new AppError('VALIDATION_ERROR', `body: exceeds the ${bodyLimit} byte limit`, { field: 'body', issue: `exceeds the ${bodyLimit} byte limit` });
  }
  if (err instanceof SyntaxError || err.type === 'entity.parse.failed' || (err.status === 400 && /json/i.test(err.message ?? ''))) {
    return new AppError('VALIDATION_ERROR', 'body: is not valid JSON', { field: 'body', issue: 'is not valid JSON' });
  }
  if (err.status === 415 || err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
    return new AppError('VALIDATION_ERROR', 'Content-Type: is not supported', { field: 'Content-Type', issue: 'must be application/json (utf-8)' });
  }
  if (err.status === 400) {
    return new AppError('VALIDATION_ERROR', 'body: could not be read', { field: 'body', issue: 'could not be read' });
  }
  return undefined;
}

/**
 * The one place errors become HTTP: ours (AppError), then the framework's client errors, then
 * anything else — logged with the request ID and answered 500 with no detail.
 */
export function errorsMiddleware(logger: Logger, bodyLimit: number): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (caught) {
      let err = caught instanceof AppError ? caught : clientError(caught as Record<string, never>, bodyLimit);
      if (!err) {
        logger.error({ err: caught, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
        err = new AppError('INTERNAL_ERROR', 'Internal server error', { requestId: ctx.state.requestId });
      }
      ctx.status = statusOf[err.code];
      ctx.type = 'application/json';
      ctx.body = envelope(err);
    }
  };
}

/** A request with a body must declare it as JSON. */
export const requireJsonBody: Middleware = async (ctx, next) => {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody && !ctx.is('application/json')) {
    throw new AppError('VALIDATION_ERROR', 'Content-Type: must be application/json', { field: 'Content-Type', issue: 'must be application/json' });
  }
  await next();
};
