import type { Db } from '../db/database.js';
import { preparedQuery } from '../db/prepared-query.js';
import type { MembersTable } from '../db/schema.js';
import { newId, nowIso } from '../shared/ids.js';

export type MemberRow = MembersTable & { email: string };

const withEmail = (db: Db) =>
  db.selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id').selectAll('m').select('u.email');

export function findMember(db: Db, orgId: string, memberId: string): Promise<MemberRow | undefined> {
  return withEmail(db).where('m.org_id', '=', orgId).where('m.id', '=', memberId).executeTakeFirst();
}

export function findMemberByUser(db: Db, orgId: string, userId: string): Promise<MemberRow | undefined> {
  return withEmail(db).where('m.org_id', '=', orgId).where('m.user_id', '=', userId).executeTakeFirst();
}

// A hot read (GET /orgs/{slug}/members): compiled once, see prepared-query.ts.
const membersPage = preparedQuery((db: Db, orgId: string, limit: number, offset: number) =>
  withEmail(db).where('m.org_id', '=', orgId).orderBy('m.created_at').orderBy('m.id').limit(limit).offset(offset),
);
const membersCount = preparedQuery((db: Db, orgId: string) =>
  db.selectFrom('members').where('org_id', '=', orgId).select((eb) => eb.fn.countAll<number>().as('n')),
);

export async function listMembers(db: Db, orgId: string, page: { limit: number; offset: number }) {
  const [rows, [count]] = await Promise.all([membersPage(db, orgId, page.limit, page.offset), membersCount(db, orgId)]);
  return [rows, count!] as const;
}

export async function countAdmins(db: Db, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('members')
    .where('org_id', '=', orgId)
    .where('role', '=', 'admin')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertMember(db: Db, row: MembersTable): Promise<void> {
  await db.insertInto('members').values(row).execute();
}

export async function setMemberRole(db: Db, memberId: string, role: string, updatedAt: string): Promise<void> {
  await db.updateTable('members').set({ role, updated_at: updatedAt }).where('id', '=', memberId).execute();
}

export async function deleteMember(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('members').where('id', '=', memberId).execute();
}

/** The user with this email, created if new. Emails are stored lower-cased. */
export async function findOrCreateUser(db: Db, email: string): Promise<{ id: string; email: string }> {
  const normalized = email.trim().toLowerCase();
  const existing = await db.selectFrom('users').select(['id', 'email']).where('email', '=', normalized).executeTakeFirst();
  if (existing) return existing;
  const user = { id: newId('usr'), email: normalized, created_at: nowIso() };
  await db.insertInto('users').values(user).execute();
  return { id: user.id, email: user.email };
}
