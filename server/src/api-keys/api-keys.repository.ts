import type { Db } from '../db/database.js';
import { preparedQuery } from '../db/prepared-query.js';
import type { ApiKeysTable } from '../db/schema.js';

export function findApiKey(db: Db, orgId: string, keyId: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).where('id', '=', keyId).executeTakeFirst();
}

export function listApiKeys(db: Db, orgId: string, page: { limit: number; offset: number }) {
  return Promise.all([
    db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).orderBy('created_at', 'desc').orderBy('id', 'desc')
      .limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('api_keys').where('org_id', '=', orgId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
}

export async function insertApiKey(db: Db, row: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function revokeApiKey(db: Db, keyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
}

/** Revokes every live key a user holds in an organization; returns how many. */
export async function revokeKeysOfUser(db: Db, orgId: string, userId: string, at: string): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Runs on every authenticated request: compiled once (see prepared-query.ts), read fresh each time. */
const keyForAuth = preparedQuery((db: Db, keyHash: string) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('organizations as o', 'o.id', 'k.org_id')
    .leftJoin('members as m', (join) => join.onRef('m.org_id', '=', 'k.org_id').onRef('m.user_id', '=', 'k.user_id'))
    .select([
      'k.id', 'k.org_id', 'k.user_id', 'k.role', 'k.permissions', 'k.expires_at', 'k.revoked_at', 'k.last_used_at',
      'm.role as member_role', 'o.slug as org_slug',
    ])
    .where('k.key_hash', '=', keyHash),
);

/** What authentication needs, by digest: the key, its member's current role, its org's slug. */
export async function findKeyForAuth(db: Db, keyHash: string) {
  const [row] = await keyForAuth(db, keyHash);
  return row;
}

export async function touchApiKey(db: Db, keyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}
