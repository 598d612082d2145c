/**
 * Matching: which units a question is about, by full-text search over `units.search_text`
 * (SQLite FTS5 with the porter tokenizer / Postgres tsvector + GIN), filtered by organization,
 * status, domain and jurisdiction, ranked, capped.
 *
 * An OR match of every word of a question costs time in proportion to how many units contain any
 * of them (tens of ms at 100,000 units), so on SQLite the search first looks up each word's
 * document frequency in the FTS vocabulary and searches only the rarest few that occur at all;
 * the candidates are then re-ranked against every word of the question (rerank below).
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
}

export interface Candidate {
  row: UnitsTable;
  /** Relevance to the question: the summed weight of the question's words the unit contains. */
  score: number;
  /** The question's words (stems) the unit contains. */
  matched: string[];
}

/** Words searched on SQLite (the rarest present), and units fetched before re-ranking. */
const SEARCH_TERMS = 4;
const CANDIDATES = 30;

const stemOf = (word: string) => stemmer(word.toLowerCase());

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

async function searchSqlite(db: Db, words: string[], filters: SearchFilters): Promise<Candidate[]> {
  const byStem = new Map<string, string>();
  for (const word of words) if (!byStem.has(stemOf(word))) byStem.set(stemOf(word), word);
  const vocab = await sql<{ term: string; doc: number }>`
    SELECT term, doc FROM units_fts_vocab WHERE term IN (${sql.join([...byStem.keys()])})`.execute(db);
  const frequency = new Map(vocab.rows.map((r) => [r.term, Number(r.doc)]));
  const rarest = [...frequency.entries()].sort((a, b) => a[1] - b[1]).slice(0, SEARCH_TERMS).map(([stem]) => byStem.get(stem)!);
  if (rarest.length === 0) return [];
  const match = rarest.map((w) => `"${w}"`).join(' OR ');
  const rows = await sql<UnitsTable>`
    SELECT u.* FROM units_fts JOIN units u ON u.rowid = units_fts.rowid
    WHERE units_fts MATCH ${match} AND u.org_id = ${filters.orgId}
      AND u.status IN (${sql.join([...filters.statuses])})
      ${filters.domainId === undefined ? sql`` : sql`AND u.domain_id = ${filters.domainId}`}
      ${filters.jurisdiction === undefined ? sql`` : sql`AND (u.jurisdiction IN (${sql.join(applicableJurisdictions(filters.jurisdiction))}) OR u.jurisdiction IS NULL)`}
    ORDER BY bm25(units_fts) LIMIT ${CANDIDATES}`.execute(db);
  const total = await documentCount(db);
  return rerank(rows.rows, words, (stem) => idf(total, frequency.get(stem) ?? 0));
}

let documents: { at: number; count: number } | undefined;
/** The number of indexed units, for idf (cached briefly: it only weighs words). */
async function documentCount(db: Db): Promise<number> {
  if (documents && Date.now() - documents.at < 10_000) return documents.count;
  const row = await sql<{ n: number }>`SELECT count(*) AS n FROM units`.execute(db);
  documents = { at: Date.now(), count: Number(row.rows[0]?.n ?? 0) };
  return documents.count;
}

async function searchPostgres(db: Db, words: string[], filters: SearchFilters): Promise<Candidate[]> {
  const query = words.join(' | ');
  const rows = await sql<UnitsTable>`
    SELECT u.* FROM units u, to_tsquery('english', ${query}) q
    WHERE u.search @@ q AND u.org_id = ${filters.orgId}
      AND u.status IN (${sql.join([...filters.statuses])})
      ${filters.domainId === undefined ? sql`` : sql`AND u.domain_id = ${filters.domainId}`}
      ${filters.jurisdiction === undefined ? sql`` : sql`AND (u.jurisdiction IN (${sql.join(applicableJurisdictions(filters.jurisdiction))}) OR u.jurisdiction IS NULL)`}
    ORDER BY ts_rank(u.search, q) DESC, u.id LIMIT ${CANDIDATES}`.execute(db);
  // Without a cheap document frequency on Postgres, every word weighs the same.
  return rerank(rows.rows.map(withoutSearchColumn), words, () => 1);
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
