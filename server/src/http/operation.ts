import type { Readable } from 'node:stream';
import type { Context as KoaContext } from 'koa';
import type { Principal, Permission } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import type { Actor } from '../audit/audit.repository.js';
import type { WebSession } from '../auth/sessions.js';
import type { Deps } from '../deps.js';

/** The validated input of one request, handed to its operation. */
export interface OperationInput {
  readonly principal: Principal;
  readonly actor: Actor;
  readonly params: Record<string, string>;
  /** Query parameters, coerced to their schema types with defaults applied. */
  readonly query: Record<string, unknown>;
  readonly body: any;
  readonly requestId: string;
  readonly koa: KoaContext;
}

export interface OperationResult {
  status: number;
  /** JSON body (already enveloped) or a stream for downloads. */
  body: unknown | Readable;
  headers?: Record<string, string>;
}

export type RateLimitTier = 'read' | 'write' | 'strict';

/** The input of an operation open to anyone (sign-in) or to a web session alone. */
export interface PublicInput {
  /** The web session behind the cookie, if any. */
  readonly session: WebSession | null;
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
  readonly params: Record<string, string>;
  readonly query: Record<string, unknown>;
  readonly body: any;
  readonly requestId: string;
  readonly koa: KoaContext;
}

/** A sign-in operation: `public` needs no credentials, `session` a web session (no organization). */
export interface PublicOperation {
  readonly access: 'public' | 'session';
  readonly tier?: RateLimitTier;
  readonly run: (deps: Deps, input: PublicInput) => Promise<OperationResult>;
}

/** One operationId's gate and handler. */
export interface Operation {
  /** The lowest effective role allowed to call it. */
  readonly minRole: Role;
  /** A permission an API key must also hold. */
  readonly permission?: Permission;
  /** Defaults to `read` for GET and `write` otherwise. */
  readonly tier?: RateLimitTier;
  readonly run: (deps: Deps, input: OperationInput) => Promise<OperationResult>;
}

export const ok = (data: unknown, status = 200): OperationResult => ({ status, body: { data } });
export const created = (data: unknown): OperationResult => ({ status: 201, body: { data } });
export const list = (data: unknown[], meta: { total: number; limit: number; offset: number }): OperationResult => ({
  status: 200,
  body: { data, meta },
});
