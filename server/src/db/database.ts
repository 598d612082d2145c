import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { setDirectReader } from './prepared-query.js';
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
  const statements = withStatementCache(sqlite);
  let driver: TrackedDriver | undefined;
  const dialect = new (class extends SqliteDialect {
    override createDriver() {
      return (driver = new TrackedDriver(super.createDriver()));
    }
  })({ database: statements });
  const db = new Kysely<Database>({ dialect });
  // Hot reads (prepared-query.ts) run at once while Kysely has not handed its one connection to
  // anyone: then no transaction (nor streamed read) is open on it, and better-sqlite3 executes the
  // statement synchronously, so nothing can interleave with it. Otherwise they queue through
  // Kysely as usual. Skipping the queue saved Kysely's ~12 async steps per query (docs/PERFORMANCE.md).
  setDirectReader(db, (sql, parameters) => {
    if (!driver || driver.connectionHeld) return undefined;
    const stmt = statements.prepare(sql);
    return stmt.reader ? stmt.all(parameters) : undefined;
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Kysely's SQLite driver, noting whether its single connection is currently handed out. */
class TrackedDriver implements Driver {
  connectionHeld = false;
  constructor(private readonly inner: Driver) {}
  init() {
    return this.inner.init();
  }
  async acquireConnection() {
    const connection = await this.inner.acquireConnection();
    this.connectionHeld = true;
    return connection;
  }
  releaseConnection(connection: DatabaseConnection) {
    this.connectionHeld = false;
    return this.inner.releaseConnection(connection);
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.savepoint!(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }
  destroy() {
    return this.inner.destroy();
  }
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
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase & { prepare(sql: string): SQLite.Statement } {
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
