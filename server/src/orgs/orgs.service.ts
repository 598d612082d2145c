import { findApiKey } from '../api-keys/api-keys.repository.js';
import { type ApiKey, issueApiKey } from '../api-keys/api-keys.service.js';
import { type Actor, insertAuditEntry } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';
import type { Db, Dialect } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { OrganizationsTable } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { findOrCreateUser, insertMember } from '../members/members.repository.js';
import { conflict, notFound } from '../shared/errors.js';
import { newId, nowIso } from '../shared/ids.js';
import { applySettingsPatch, changedPaths, type JsonObject, publicSettings } from './org-settings.js';
import * as repo from './orgs.repository.js';

export type Plan = 'free' | 'team' | 'enterprise';

export interface Organization {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  settings: JsonObject;
  role: Role;
  createdAt: string;
  updatedAt: string;
}

export const toOrganization = (row: OrganizationsTable, role: Role): Organization => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  plan: row.plan as Plan,
  settings: publicSettings(JSON.parse(row.settings) as JsonObject),
  role,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const slugTaken = () => conflict('An organization with this slug exists', { field: 'slug' });

/**
 * A key reaches only its own organization: any other slug is 404, exactly as a slug that does
 * not exist (no existence oracle across tenants).
 */
export function assertOrgInScope(principal: Principal, slug: string): void {
  if (slug !== principal.orgSlug) throw notFound('Organization');
}

export async function listOrgs(deps: Deps, principal: Principal, page: { limit: number; offset: number }) {
  const scope = principal.apiKeyId ? [principal.orgId] : undefined;
  const [rows, count] = await repo.listOrgsOfUser(deps.store.db, principal.userId, scope, page);
  // Through a key the effective role is capped by the key's role.
  return { orgs: rows.map((r) => toOrganization(r, r.id === principal.orgId ? principal.role : (r.member_role as Role))), total: Number(count.n) };
}

/** Creates the organization and its first admin membership, audited in the new organization. */
export async function createOrgWithAdmin(
  trx: Db, dialect: Dialect, actor: Actor, input: { name: string; slug: string; adminUserId: string },
): Promise<OrganizationsTable> {
  if (await repo.findOrgBySlug(trx, input.slug)) throw slugTaken();
  const at = nowIso();
  const org: OrganizationsTable = { id: newId('org'), slug: input.slug, name: input.name, plan: 'free', settings: '{}', created_at: at, updated_at: at };
  await repo.insertOrg(trx, org);
  await insertMember(trx, { id: newId('mem'), org_id: org.id, user_id: input.adminUserId, role: 'admin', invited_by: null, created_at: at, updated_at: at });
  await insertAuditEntry(trx, dialect, actor, {
    orgId: org.id,
    action: 'org.created',
    resourceType: 'organization',
    resourceId: org.id,
    details: { name: org.name, slug: org.slug, adminUserId: input.adminUserId },
  });
  return org;
}

export async function createOrg(
  deps: Deps, principal: Principal, actor: Actor, input: { name: string; slug: string },
): Promise<Organization & { apiKey?: ApiKey & { key: string } }> {
  const { db, dialect } = deps.store;
  return db
    .transaction()
    .execute(async (trx) => {
      const org = await createOrgWithAdmin(trx, dialect, actor, { ...input, adminUserId: principal.userId });
      const result: Organization & { apiKey?: ApiKey & { key: string } } = toOrganization(org, 'admin');
      if (principal.apiKeyId) {
        // A key reaches one organization only; hand the caller a key for the new one.
        result.apiKey = await issueApiKey(trx, dialect, actor, org.id, { name: `${org.slug} admin`, role: 'admin', permissions: ['inference'] });
      }
      return result;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    });
}

export interface OrgUpdate {
  name?: string;
  plan?: Plan;
  settings?: JsonObject;
}

export function updateOrg(deps: Deps, principal: Principal, actor: Actor, patch: OrgUpdate): Promise<Organization> {
  const { db, dialect } = deps.store;
  return db.transaction().execute(async (trx) => {
    const row = await repo.findOrgById(trx, principal.orgId);
    if (!row) throw notFound('Organization');
    const next: OrganizationsTable = { ...row, updated_at: nowIso() };
    const changed: string[] = [];
    if (patch.name !== undefined && patch.name !== row.name) { next.name = patch.name; changed.push('name'); }
    if (patch.plan !== undefined && patch.plan !== row.plan) { next.plan = patch.plan; changed.push('plan'); }
    if (patch.settings !== undefined) {
      next.settings = JSON.stringify(applySettingsPatch(JSON.parse(row.settings) as JsonObject, structuredClone(patch.settings), deps.secrets));
      changed.push(...changedPaths(patch.settings));
    }
    await repo.updateOrg(trx, row.id, { name: next.name, plan: next.plan, settings: next.settings, updated_at: next.updated_at });
    await insertAuditEntry(trx, dialect, actor, {
      orgId: row.id,
      action: 'org.updated',
      resourceType: 'organization',
      resourceId: row.id,
      details: { changed, ...(patch.name !== undefined ? { name: next.name } : {}), ...(patch.plan !== undefined ? { plan: next.plan } : {}) },
    });
    return toOrganization(next, principal.role);
  });
}

/** For `lemma-server init` and the demo bootstrap: org, first admin and an admin key. */
export async function bootstrapOrg(
  deps: Pick<Deps, 'store'>, input: { slug: string; name: string; email: string },
): Promise<{ org: OrganizationsTable; user: { id: string; email: string }; apiKey: string }> {
  const { db, dialect } = deps.store;
  return db
    .transaction()
    .execute(async (trx) => {
      const user = await findOrCreateUser(trx, input.email);
      const actor: Actor = { userId: user.id, ipAddress: null, userAgent: 'lemma-server init' };
      const org = await createOrgWithAdmin(trx, dialect, actor, { name: input.name, slug: input.slug, adminUserId: user.id });
      const key = await issueApiKey(trx, dialect, actor, org.id, { name: 'bootstrap admin', role: 'admin', permissions: ['inference'] });
      return { org, user, apiKey: key.key };
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    });
}

/** The caller as the server sees them (`GET /me`). */
export async function currentPrincipal(deps: Deps, principal: Principal) {
  const { db } = deps.store;
  const [org, user, key] = await Promise.all([
    repo.findOrgById(db, principal.orgId),
    db.selectFrom('users').select(['id', 'email']).where('id', '=', principal.userId).executeTakeFirstOrThrow(),
    principal.apiKeyId === null ? undefined : findApiKey(db, principal.orgId, principal.apiKeyId),
  ]);
  return {
    user,
    organization: { id: org!.id, slug: org!.slug, name: org!.name },
    role: principal.role,
    permissions: [...principal.permissions],
    apiKey: key ? { id: key.id, name: key.name, start: key.start, expiresAt: key.expires_at } : null,
  };
}
