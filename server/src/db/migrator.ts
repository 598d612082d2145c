import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './database.js';
import * as governance from './migrations/2026-11-26T00-00-governance.js';
import * as units from './migrations/2026-11-26T01-00-units.js';
import * as inference from './migrations/2026-11-26T02-00-inference.js';
import * as workflows from './migrations/2026-11-26T03-00-workflows.js';
import * as unitCounts from './migrations/2026-11-26T04-00-unit-counts.js';
import * as signIn from './migrations/2026-11-26T05-00-sign-in.js';

/** Migrations in order, named by timestamp; one set for both dialects. */
const migrations: Record<string, Migration> = {
  '2026-11-26T00-00-governance': governance,
  '2026-11-26T01-00-units': units,
  '2026-11-26T02-00-inference': inference,
  '2026-11-26T03-00-workflows': workflows,
  '2026-11-26T04-00-unit-counts': unitCounts,
  '2026-11-26T05-00-sign-in': signIn,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export function migrator(db: Db): Migrator {
  return new Migrator({ db, provider, migrationTableName: 'lemma_migrations', migrationLockTableName: 'lemma_migrations_lock' });
}

/** Runs pending migrations; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied (readiness). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const applied = await migrator(db).getMigrations();
  return applied.every((m) => m.executedAt !== undefined);
}
