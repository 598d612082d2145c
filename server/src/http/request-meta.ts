import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a well-formed incoming X-Request-Id, else makes one; on every response. */
export const requestId: Middleware = async (ctx, next) => {
  const incoming = ctx.get('x-request-id');
  const id = VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  await next();
};

/** The client's address; `X-Forwarded-For` counts only behind a trusted proxy. */
export function clientIp(ctx: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = ctx.get('x-forwarded-for').split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return ctx.req.socket.remoteAddress ?? 'unknown';
}

/** This server's origin as the request reached it (`http://host:port`); Koa 3's `ctx.origin` is not it. */
export function selfOrigin(ctx: { protocol: string; host: string }): string {
  return `${ctx.protocol}://${ctx.host}`;
}

/**
 * Whether the browser says the request comes from this server's own pages: `Sec-Fetch-Site:
 * same-origin`, else an `Origin` equal to the server's. The CSRF check of cookie-authenticated
 * changes, in the API and the pages alike.
 */
export function fromThisSite(ctx: { get(name: string): string; protocol: string; host: string }): boolean {
  const site = ctx.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  const origin = ctx.get('origin');
  return origin !== '' && origin === selfOrigin(ctx);
}
