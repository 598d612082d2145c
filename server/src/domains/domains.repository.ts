import type { Db } from '../db/database.js';
import type { DomainMembersTable, DomainsTable } from '../db/schema.js';

export type DomainRow = DomainsTable & { unit_count: number | string };

function withUnitCount(db: Db, orgId: string) {
  return db
    .selectFrom('domains as d')
    .selectAll('d')
    // From the trigger-kept counters (unit_counts), not by counting the domain's units.
    .select((eb) =>
      eb.selectFrom('unit_counts as c').whereRef('c.org_id', '=', 'd.org_id').whereRef('c.domain_id', '=', 'd.id')
        .select((c) => c.fn.coalesce(c.fn.sum<number>('c.n'), c.val(0)).as('n')).as('unit_count'))
    .where('d.org_id', '=', orgId);
}

/** Whether the organization has a domain with this id. */
export async function domainExists(db: Db, orgId: string, id: string): Promise<boolean> {
  return (await db.selectFrom('domains').select('id').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** A domain of the organization by id or slug. */
export function findDomain(db: Db, orgId: string, key: { id: string } | { slug: string }): Promise<DomainRow | undefined> {
  const query = withUnitCount(db, orgId);
  return ('id' in key ? query.where('d.id', '=', key.id) : query.where('d.slug', '=', key.slug)).executeTakeFirst() as Promise<DomainRow | undefined>;
}

export async function listDomains(db: Db, orgId: string, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    withUnitCount(db, orgId).orderBy('d.name').orderBy('d.id').limit(page.limit).offset(page.offset).execute() as Promise<DomainRow[]>,
    db.selectFrom('domains').where('org_id', '=', orgId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function insertDomain(db: Db, row: DomainsTable): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

export type DomainMemberRow = DomainMembersTable & { email: string };

const membersWithEmail = (db: Db, orgId: string, domainId: string) =>
  db
    .selectFrom('domain_members as dm')
    .innerJoin('users as u', 'u.id', 'dm.user_id')
    .selectAll('dm')
    .select('u.email')
    .where('dm.org_id', '=', orgId)
    .where('dm.domain_id', '=', domainId);

/** Every member of a domain (the review rule reads them all; domains have few). */
export function domainMembers(db: Db, orgId: string, domainId: string): Promise<DomainMemberRow[]> {
  return membersWithEmail(db, orgId, domainId).orderBy('dm.created_at').orderBy('dm.user_id').execute();
}

export async function listDomainMembers(db: Db, orgId: string, domainId: string, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    membersWithEmail(db, orgId, domainId).orderBy('dm.created_at').orderBy('dm.user_id').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('domain_members').where('domain_id', '=', domainId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findDomainMember(db: Db, orgId: string, domainId: string, userId: string): Promise<DomainMemberRow | undefined> {
  return membersWithEmail(db, orgId, domainId).where('dm.user_id', '=', userId).executeTakeFirst();
}

export async function insertDomainMember(db: Db, row: DomainMembersTable): Promise<void> {
  await db.insertInto('domain_members').values(row).execute();
}

export async function deleteDomainMember(db: Db, domainId: string, userId: string): Promise<void> {
  await db.deleteFrom('domain_members').where('domain_id', '=', domainId).where('user_id', '=', userId).execute();
}

/** Removes a user from every domain of the organization (they left it); returns how many. */
export async function removeUserFromDomains(db: Db, orgId: string, userId: string): Promise<number> {
  const result = await db.deleteFrom('domain_members').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
