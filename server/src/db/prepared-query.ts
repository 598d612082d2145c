import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';

/**
 * A query shape that Kysely builds and compiles once per database handle; each call runs the
 * compiled SQL with that call's values as its parameters.
 *
 * Why: building a query (`selectFrom(...).innerJoin(...).where(...)`) and compiling it to SQL
 * costs Kysely tens of microseconds, on every request, for SQL text that never changes — the
 * values are always bound parameters. On the hottest reads (authentication and member listing,
 * see docs/PERFORMANCE.md) that was a large share of each request. The query is still written
 * with Kysely, typed and dialect-neutral; only the per-call rebuild is skipped.
 *
 * How: the builder runs once with a unique marker string for each argument; the compiled query's
 * parameters are then mapped back to argument positions (other parameters stay constants). A
 * marker that did not become a bound parameter (inlined into the SQL, or dropped) is refused at
 * compile time, so a value can never be frozen into the cached SQL.
 */
export function preparedQuery<A extends unknown[], O>(build: (db: Db, ...args: A) => Compilable<O>): (db: Db, ...args: A) => Promise<O[]> {
  const compiledFor = new WeakMap<Db, { query: CompiledQuery<O>; slots: (number | { constant: unknown })[] }>();
  return async (db, ...args) => {
    let compiled = compiledFor.get(db);
    if (!compiled) {
      compiled = compile(build, db, args.length);
      compiledFor.set(db, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.constant));
    const rows = directReaders.get(db)?.(query.sql, parameters);
    if (rows) return rows as O[];
    const result = await db.executeQuery<O>({ ...query, parameters });
    return result.rows;
  };
}

/** Runs a read at once and returns its rows, or undefined when it must go through Kysely. */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const directReaders = new WeakMap<Db, DirectReader>();

/** Lets prepared queries on `db` (not on its transactions) skip Kysely's queue: see database.ts. */
export function setDirectReader(db: Db, reader: DirectReader): void {
  directReaders.set(db, reader);
}

function compile<A extends unknown[], O>(build: (db: Db, ...args: A) => Compilable<O>, db: Db, arity: number) {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000prepared-query-arg-${i}\u0000`);
  const query = build(db, ...(markers as A)).compile();
  const slots = query.parameters.map((p) => {
    const index = typeof p === 'string' ? markers.indexOf(p) : -1;
    return index >= 0 ? index : { constant: p };
  });
  markers.forEach((marker, i) => {
    if (query.sql.includes(marker) || !slots.includes(i)) {
      throw new Error(`preparedQuery: argument ${i} is not a bound parameter of: ${query.sql}`);
    }
  });
  return { query, slots };
}
