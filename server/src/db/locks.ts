import type { Db, Dialect } from './database.js';

/**
 * Serialises writers of one organization for the rest of the transaction (Postgres row lock).
 * SQLite needs none: Kysely runs one transaction at a time on its single connection.
 * `FOR NO KEY UPDATE`, not `FOR UPDATE`: inserting a row that references the organization takes a
 * key-share lock on it, which `FOR UPDATE` would wait on, deadlocking two such writers.
 */
export async function lockOrganization(trx: Db, dialect: Dialect, orgId: string): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('organizations').select('id').where('id', '=', orgId).forNoKeyUpdate().execute();
  }
}
