export const ROLES = ['viewer', 'reviewer', 'author', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const rank: Record<Role, number> = { viewer: 0, reviewer: 1, author: 2, admin: 3 };

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function atLeast(role: Role, minimum: Role): boolean {
  return rank[role] >= rank[minimum];
}

/** The lower of two roles: a key never acts above its member. */
export function lowerRole(a: Role, b: Role): Role {
  return rank[a] <= rank[b] ? a : b;
}
