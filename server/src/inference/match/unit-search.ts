/**
 * Matching: which units a question is about, by full-text search over `units.search_text`
 * (SQLite FTS5 with the porter tokenizer / Postgres tsvector + GIN), filtered by organization,
 * status, domain and jurisdiction, ranked, capped.
 *
 * An OR match of every word of a question costs time in proportion to how many units contain any
 * of them (tens of ms at 100,000 units), so on SQLite each part of the question is searched with
 * a planned query (planMatch: its rarest words within a row budget, and pairs of them), ranked in
 * the index alone, and only the best rows are read; the candidates are then re-ranked against
 * every word of the question (rerank below). docs/PERFORMANCE.md has the measurements.
 */
import { sql } from 'kysely';
import { stemmer } from 'stemmer';
import type { Db, Dialect } from '../../db/database.js';
import type { UnitsTable } from '../../db/schema.js';
import { applicableJurisdictions } from '../../shared/jurisdictions.js';

export interface SearchFilters {
  orgId: string;
  statuses: readonly string[];
  domainId?: string | undefined;
  jurisdiction?: string | undefined;
  /** The question's parts: each is searched on its own (SQLite). */
  clauses?: readonly string[];
}

export interface Candidate {
  row: UnitsTable;
  /** Relevance to the question: the summed weight of the question's words the unit contains. */
  score: number;
  /** The question's words (stems) the unit contains. */
  matched: string[];
}

/** At most this many words searched alone per part, within ROW_BUDGET rows of the index. */
const SEARCH_TERMS = 4;
const ROW_BUDGET = 2000;
/** Rows ranked in the index per part, and units kept per part after re-ranking. */
const TOP_K = 50;
const CANDIDATES = 30;

const stems = new Map<string, string>();
const stemOf = (word: string): string => {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size > 50_000) stems.clear();
    stems.set(word, (stem = stemmer(word.toLowerCase())));
  }
  return stem;
};

/** Stems of the words of a text (as the porter tokenizer would index them). */
export function stemsOf(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stemOf));
}

export async function searchUnits(db: Db, dialect: Dialect, keywords: readonly string[], filters: SearchFilters): Promise<Candidate[]> {
  // As the index splits them: "non-compete" is searched as "non" and "compete".
  const words = [...new Set(keywords.flatMap((k) => k.toLowerCase().match(/[a-z0-9]+/g) ?? []))];
  if (words.length === 0 || filters.statuses.length === 0) return [];
  return dialect === 'postgres' ? searchPostgres(db, words, filters) : searchSqlite(db, words, filters);
}

/**
 * The terms of each part of the question, searched one part at a time so that one part cannot
 * crowd out another; all terms together when there is one part.
 */
function partsOf<T>(terms: readonly T[], clauses: readonly string[] | undefined, stemOfTerm: (term: T) => string): T[][] {
  if (clauses === undefined || clauses.length < 2) return [[...terms]];
  return clauses
    .map((text) => {
      const stems = stemsOf(text);
      return terms.filter((t) => stems.has(stemOfTerm(t)));
    })
    .filter((group) => group.length > 0);
}

/**
 * Per database (test processes open several): document frequencies and the unit count, cached
 * briefly: they only weigh and pick words, and reading them costs more as the index grows.
 */
interface IndexStats {
  documents?: { at: number; count: number };
  frequency: Map<string, { at: number; doc: number }>;
}
const STATS_TTL_MS = 10_000;
const statsOf = new WeakMap<Db, IndexStats>();
const statsFor = (db: Db): IndexStats => {
  let s = statsOf.get(db);
  if (!s) statsOf.set(db, (s = { frequency: new Map() }));
  return s;
};

async function documentFrequencies(db: Db, stemList: readonly string[]): Promise<Map<string, number>> {
  const cache = statsFor(db).frequency;
  const now = Date.now();
  const stale = stemList.filter((s) => !cache.has(s) || now - cache.get(s)!.at > STATS_TTL_MS);
  if (stale.length > 0) {
    const vocab = await sql<{ term: string; doc: number }>`SELECT term, doc FROM units_fts_vocab WHERE term IN (${sql.join(stale)})`.execute(db);
    const found = new Map(vocab.rows.map((r) => [r.term, Number(r.doc)]));
    if (cache.size > 50_000) cache.clear();
    for (const s of stale) cache.set(s, { at: now, doc: found.get(s) ?? 0 });
  }
  return new Map(stemList.map((s) => [s, cache.get(s)!.doc]));
}

/** The number of indexed units, for idf. */
async function documentCount(db: Db): Promise<number> {
  const s = statsFor(db);
  if (s.documents && Date.now() - s.documents.at < STATS_TTL_MS) return s.documents.count;
  const row = await sql<{ n: number }>`SELECT count(*) AS n FROM units`.execute(db);
  s.documents = { at: Date.now(), count: Number(row.rows[0]?.n ?? 0) };
  return s.documents.count;
}

/**
 * The FTS5 query for one part of a question, planned to read few rows however large the index:
 * its rarest words alone while their document frequencies sum within ROW_BUDGET, OR any two of its
 * three rarest together (an AND of common words still reads little, and often pins the unit).
 */
function planMatch(group: readonly string[], frequency: ReadonlyMap<string, number>, byStem: ReadonlyMap<string, string>): string | null {
  const present = group.filter((s) => (frequency.get(s) ?? 0) > 0).sort((a, b) => frequency.get(a)! - frequency.get(b)!);
  if (present.length === 0) return null;
  const quoted = (s: string) => `"${byStem.get(s)}"`;
  const parts: string[] = [];
  let rows = 0;
  for (const s of present.slice(0, SEARCH_TERMS)) {
    if (rows + frequency.get(s)! > ROW_BUDGET && parts.length > 0) break;
    parts.push(quoted(s));
    rows += frequency.get(s)!;
  }
  const rare = present.slice(0, 3);
  for (let i = 0; i < rare.length; i++) for (let j = i + 1; j < rare.length; j++) parts.push(`(${quoted(rare[i]!)} AND ${quoted(rare[j]!)})`);
  return parts.join(' OR ');
}

async function searchSqlite(db: Db, words: string[], filters: SearchFilters): Promise<Candidate[]> {
  const byStem = new Map<string, string>();
  for (const word of words) if (!byStem.has(stemOf(word))) byStem.set(stemOf(word), word);
  const all = [...byStem.keys()];
  const frequency = await documentFrequencies(db, all);
  const groups = partsOf(all, filters.clauses, (stem) => stem);
  const scope = sql`+u.org_id = ${filters.orgId} AND +u.status IN (${sql.join([...filters.statuses])})
      ${filters.domainId === undefined ? sql`` : sql`AND u.domain_id = ${filters.domainId}`}
      ${filters.jurisdiction === undefined ? sql`` : sql`AND (u.jurisdiction IN (${sql.join(applicableJurisdictions(filters.jurisdiction))}) OR u.jurisdiction IS NULL)`}`;
  const byId = new Map<string, UnitsTable>();
  for (const group of groups) {
    const match = planMatch(group, frequency, byStem);
    if (match === null) continue;
    // Ranked in the index alone, then only the best rows read (a unit row is kilobytes).
    const top = await sql<{ id: number; r: number }>`
      SELECT rowid AS id, bm25(units_fts) AS r FROM units_fts WHERE units_fts MATCH ${match} ORDER BY r LIMIT ${TOP_K}`.execute(db);
    const rank = new Map(top.rows.map((t) => [Number(t.id), t.r]));
    let rows = rank.size === 0 ? [] : (await sql<UnitsTable & { _rowid: number }>`
      SELECT u.rowid AS _rowid, u.* FROM units u WHERE u.rowid IN (${sql.join([...rank.keys()])}) AND ${scope}`.execute(db)).rows
      .sort((a, b) => rank.get(a._rowid)! - rank.get(b._rowid)!);
    if (rows.length < CANDIDATES && rank.size === TOP_K) {
      // Other organizations' or statuses' units filled the top: rank within the scope instead.
      rows = (await sql<UnitsTable & { _rowid: number }>`
        SELECT u.rowid AS _rowid, u.* FROM units_fts CROSS JOIN units u ON u.rowid = units_fts.rowid
        WHERE units_fts MATCH ${match} AND ${scope} ORDER BY bm25(units_fts) LIMIT ${CANDIDATES}`.execute(db)).rows;
    }
    for (const { _rowid: _ignored, ...row } of rows) if (!byId.has(row.id)) byId.set(row.id, row);
  }
  if (byId.size === 0) return [];
  const total = await documentCount(db);
  return rerank([...byId.values()], words, (stem) => idf(total, frequency.get(stem) ?? 0)).slice(0, CANDIDATES * groups.length);
}

async function searchPostgres(db: Db, words: string[], filters: SearchFilters): Promise<Candidate[]> {
  const groups = partsOf(words, filters.clauses, stemOf);
  const byId = new Map<string, UnitsTable>();
  for (const group of groups) {
    const rows = await sql<UnitsTable>`
      SELECT u.* FROM units u, to_tsquery('english', ${group.join(' | ')}) q
      WHERE u.search @@ q AND u.org_id = ${filters.orgId}
        AND u.status IN (${sql.join([...filters.statuses])})
        ${filters.domainId === undefined ? sql`` : sql`AND u.domain_id = ${filters.domainId}`}
        ${filters.jurisdiction === undefined ? sql`` : sql`AND (u.jurisdiction IN (${sql.join(applicableJurisdictions(filters.jurisdiction))}) OR u.jurisdiction IS NULL)`}
      ORDER BY ts_rank(u.search, q) DESC, u.id LIMIT ${CANDIDATES}`.execute(db);
    for (const row of rows.rows.map(withoutSearchColumn)) if (!byId.has(row.id)) byId.set(row.id, row);
  }
  // Without a cheap document frequency on Postgres, every word weighs the same.
  return rerank([...byId.values()], words, () => 1).slice(0, CANDIDATES * groups.length);
}

/** Postgres also returns the generated `search` column; the row type has no such field. */
function withoutSearchColumn(row: UnitsTable & { search?: unknown }): UnitsTable {
  const { search: _search, ...rest } = row;
  return rest;
}

/** BM25's idf, never negative (the unit count is cached briefly and may lag the vocabulary). */
const idf = (total: number, frequency: number) => Math.log(1 + (Math.max(total, frequency) - frequency + 0.5) / (frequency + 0.5));

/**
 * Orders candidates by the summed weight of the question's words each contains, words of the
 * unit's name counting double (a name says what a unit is about; its body mentions much else).
 */
function rerank(rows: readonly UnitsTable[], words: readonly string[], weight: (stem: string) => number): Candidate[] {
  const stems = [...new Set(words.map(stemOf))];
  return rows
    .map((row) => {
      const body = stemsOf(row.search_text);
      const name = stemsOf(row.name);
      const matched = stems.filter((s) => body.has(s));
      const score = matched.reduce((sum, s) => sum + weight(s) * (name.has(s) ? 2 : 1), 0);
      return { row, score, matched };
    })
    .sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1));
}
