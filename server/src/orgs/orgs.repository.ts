import type { Db } from '../db/database.js';
import type { OrganizationsTable } from '../db/schema.js';

export function findOrgById(db: Db, orgId: string): Promise<OrganizationsTable | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
}

export function findOrgBySlug(db: Db, slug: string): Promise<OrganizationsTable | undefined> {
  return db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function insertOrg(db: Db, row: OrganizationsTable): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function updateOrg(db: Db, orgId: string, patch: Partial<Omit<OrganizationsTable, 'id'>>): Promise<void> {
  await db.updateTable('organizations').set(patch).where('id', '=', orgId).execute();
}

/** Organizations where the user is a member, with the member's role, oldest first. */
export function listOrgsOfUser(db: Db, userId: string, onlyOrgIds: readonly string[] | undefined, page: { limit: number; offset: number }) {
  let q = db
    .selectFrom('organizations as o')
    .innerJoin('members as m', 'm.org_id', 'o.id')
    .where('m.user_id', '=', userId);
  if (onlyOrgIds) q = q.where('o.id', 'in', onlyOrgIds);
  return Promise.all([
    q.selectAll('o').select('m.role as member_role').orderBy('o.created_at').orderBy('o.id').limit(page.limit).offset(page.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
}

/** The organization's stored settings (JSON), as far as services read them. */
export interface StoredOrgSettings {
  verification?: { minApprovals?: number };
  llm?: Record<string, unknown>;
}

export async function findOrgSettings(db: Db, orgId: string): Promise<StoredOrgSettings> {
  const row = await db.selectFrom('organizations').select('settings').where('id', '=', orgId).executeTakeFirstOrThrow();
  return JSON.parse(row.settings) as StoredOrgSettings;
}
