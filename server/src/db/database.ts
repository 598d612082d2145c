import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = Config['dialect'];

/** The database handle the app is built on; `pgPool` is shared with the Postgres rate-limit store. */
export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  readonly pgPool?: pg.Pool;
  close(): Promise<void>;
}

// int8 (count(*), bigint) as numbers rather than strings; our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function openStore(config: Pick<Config, 'databaseUrl' | 'dialect'>): Store {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pgPool: pool, close: () => db.destroy() };
  }
  const file = config.databaseUrl.slice('sqlite:'.length);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
