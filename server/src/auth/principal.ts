import type { Role } from './roles.js';

export const PERMISSIONS = ['inference'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Who is calling, resolved from an API key (or, later, a web session). */
export interface Principal {
  readonly userId: string;
  readonly orgId: string;
  readonly orgSlug: string;
  /** The lower of the key's role and the member's current role. */
  readonly role: Role;
  readonly permissions: readonly Permission[];
  readonly apiKeyId: string | null;
  /** What the rate limiter counts against: the key, or the session's user. */
  readonly rateLimitKey: string;
}
