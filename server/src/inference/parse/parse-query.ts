/**
 * parseQuery: clauses, values, jurisdiction and keywords of a question, deterministically and
 * without network. bind-inputs.ts binds the values to one unit's inputs.
 */
import { findDates } from './dates.js';
import { extractValues, type ValueSpan } from './extract-values.js';
import { findJurisdictions, pickJurisdiction, type JurisdictionMention } from './jurisdiction.js';
import { analyze, type Analysis } from './text-analysis.js';
import type { ParsedQuery } from './types.js';

/** Text in quotes: a literal (a name, an identifier), bound only to free-text inputs. */
export interface QuotedSpan {
  /** Offsets of the quoted text, quote marks excluded. */
  start: number;
  end: number;
  text: string;
}

/** What bindInputs needs beyond the ParsedQuery: the tokens and where each value sits among them. */
export interface QueryAnalysis {
  analysis: Analysis;
  spans: ValueSpan[];
  quotes: QuotedSpan[];
  jurisdiction: JurisdictionMention | null;
}

const QUOTE_PATTERNS: readonly RegExp[] = [
  /"([^"\n]{1,200})"/g,
  /“([^”\n]{1,200})”/g,
  /«([^»\n]{1,200})»/g,
  // Single quotes only when they cannot be apostrophes: "the payee 'Acme'", not "employee's".
  /(?<![\p{L}\p{N}])'([^'\n]{1,200})'(?![\p{L}\p{N}])/gu,
  /(?<![\p{L}\p{N}])‘([^’\n]{1,200})’(?![\p{L}\p{N}])/gu,
];

function findQuotes(text: string): QuotedSpan[] {
  const quotes: QuotedSpan[] = [];
  for (const pattern of QUOTE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const inner = m[1]!;
      const start = m.index + 1;
      const trimmed = inner.trim();
      if (!trimmed) continue;
      const lead = inner.indexOf(trimmed);
      if (quotes.some((q) => start < q.end + 1 && start + inner.length > q.start - 1)) continue;
      quotes.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
    }
  }
  return quotes.sort((a, b) => a.start - b.start);
}

/** The text with quoted parts blanked, offsets kept: names in quotes are not jurisdictions. */
function withoutQuotes(text: string, quotes: readonly QuotedSpan[]): string {
  let out = text;
  for (const q of quotes) out = out.slice(0, q.start) + ' '.repeat(q.end - q.start) + out.slice(q.end);
  return out;
}

function analyseQuery(text: string): QueryAnalysis {
  const analysis = analyze(text);
  const quotes = findQuotes(text);
  const inQuote = (start: number, end: number) => quotes.some((q) => start >= q.start && end <= q.end);
  const blocked = analysis.tokens.map((t) => inQuote(t.start, t.end));
  const dates = findDates(text).filter((d) => !inQuote(d.start, d.end));
  const spans = extractValues(analysis, dates, blocked);
  const jurisdiction = pickJurisdiction(findJurisdictions(withoutQuotes(text, quotes)));
  return { analysis, spans, quotes, jurisdiction };
}

// The analysis behind each ParsedQuery this process made; a ParsedQuery that went through JSON (a
// resumed session) is analysed again from its text, with the same result.
const analyses = new WeakMap<ParsedQuery, QueryAnalysis>();

/** The token-level analysis of a parsed query. */
export function analysisOf(parsed: ParsedQuery): QueryAnalysis {
  let found = analyses.get(parsed);
  if (!found) {
    found = analyseQuery(parsed.text);
    analyses.set(parsed, found);
  }
  return found;
}

/** Splits a question into clauses and reads its values, jurisdiction and keywords. */
export function parseQuery(query: string): ParsedQuery {
  const qa = analyseQuery(query);
  const { analysis } = qa;
  const keywords: string[] = [];
  const seen = new Set<string>();
  for (const t of analysis.tokens) {
    if (t.kind !== 'word' || t.stop || t.lemma.length < 2 || !/\p{L}/u.test(t.lemma)) continue;
    if (seen.has(t.lemma)) continue;
    seen.add(t.lemma);
    keywords.push(t.lemma);
  }
  const parsed: ParsedQuery = {
    text: query,
    clauses: analysis.clauses.map((c) => ({ index: c.index, text: query.slice(c.start, c.end), start: c.start, end: c.end })),
    values: qa.spans.map((s) => s.value),
    jurisdiction: qa.jurisdiction?.code ?? null,
    keywords,
  };
  analyses.set(parsed, qa);
  return parsed;
}
