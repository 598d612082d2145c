import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Distinct SQL texts kept prepared; the app has a few dozen query shapes, so this is never reached in practice. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 with prepared statements reused by SQL text. Kysely's SQLite driver calls
 * `prepare(sql)` for every query it runs, and preparing (parsing and planning the SQL) was ~10 %
 * of a `GET /orgs/{slug}/members` in the profile (docs/PERFORMANCE.md). Kysely binds values as
 * parameters, so one request shape has one SQL text. SQLite re-prepares a statement by itself if
 * the schema changes under it. A statement still being iterated (a streamed query) is busy and
 * cannot run again, so a fresh one is prepared then.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let stmt = cache.get(sql);
      if (stmt && !stmt.busy) return stmt;
      stmt = sqlite.prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      if (!cache.has(sql)) cache.set(sql, stmt);
      return stmt;
    },
  };
}
