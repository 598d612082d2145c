/**
 * A short-lived, encrypted cookie that carries a sign-in flow's secrets (state, PKCE verifier,
 * nonce…) from its start to its callback. AES-256-GCM via the secret box, so it can be neither read
 * nor forged; the cookie's name is sealed inside too, so one flow's cookie cannot stand in for
 * another's, and so is an expiry (the browser's Max-Age is only a hint).
 *
 * SameSite=Lax: the callback is a top-level GET navigation back from the provider, which Lax
 * cookies accompany.
 */
import type { Deps } from '../deps.js';

export interface FlowCookieOptions {
  /** Secure attribute: the server is reached over https. */
  secure: boolean;
  /** Cookie path; `/` unless narrowed. */
  path?: string;
}

const COOKIE_NAME = /^[A-Za-z0-9_-]+$/;

function checkName(name: string): void {
  if (!COOKIE_NAME.test(name)) throw new Error(`flow cookie name "${name}" is not a plain token`);
}

/** `Set-Cookie` holding `data` sealed for `ttlMs` under the cookie `name`. */
export function sealFlow(deps: Pick<Deps, 'secrets'>, name: string, data: unknown, ttlMs: number, opts: FlowCookieOptions): string {
  checkName(name);
  const sealed = deps.secrets.encrypt(JSON.stringify({ n: name, exp: Date.now() + ttlMs, d: data }));
  // The ciphertext is `v1:<keyId>:<iv>:<tag>:<data>`, base64url parts: no cookie-unsafe characters.
  return `${name}=${sealed}; Path=${opts.path ?? '/'}; HttpOnly; SameSite=Lax; Max-Age=${Math.ceil(ttlMs / 1000)}${opts.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` removing the cookie `name` (same path as it was set with). */
export function clearFlow(name: string, opts: FlowCookieOptions): string {
  checkName(name);
  return `${name}=; Path=${opts.path ?? '/'}; HttpOnly; SameSite=Lax; Max-Age=0${opts.secure ? '; Secure' : ''}`;
}

/**
 * The data sealed in the cookie `name` of a `Cookie` header, or null when it is missing, forged,
 * sealed under another name, or expired.
 */
export function openFlow<T = unknown>(deps: Pick<Deps, 'secrets'>, cookieHeader: string | undefined, name: string): T | null {
  if (!cookieHeader) return null;
  let value: string | undefined;
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) value = rest.join('=');
  }
  if (!value) return null;
  try {
    const opened = JSON.parse(deps.secrets.decrypt(value)) as { n?: unknown; exp?: unknown; d?: unknown };
    if (opened.n !== name || typeof opened.exp !== 'number' || opened.exp <= Date.now()) return null;
    return opened.d as T;
  } catch {
    return null;
  }
}
