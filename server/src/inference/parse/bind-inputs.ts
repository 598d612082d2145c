/**
 * bindInputs: binds a parsed query's values, booleans and enum values to one unit's inputs.
 *
 * - A value binds to the property whose words (name, `title`, `description`, `x-aliases`) stand
 *   nearest to it in the same clause; each value binds at most one property and each property at
 *   most one value, best pairs first. Two equally good pairs for one value (or one property) are
 *   ambiguous and bind neither.
 * - Durations convert to the unit the property is expressed in; percentages become fractions
 *   for fraction/ratio properties; integer properties refuse fractional values.
 * - A boolean binds when one of its phrases occurs whole; a negation next to it makes it false.
 * - An enum binds when one of its values (or an `x-enum-aliases` synonym) occurs.
 * - Free text binds only from quotes after the property's words, or from the jurisdiction for a
 *   state/country property.
 * docs/PARSER.md has the full rules.
 */
import type { IoSchema } from '../../units/definition.js';
import { clean, HOURS_PER, type ValueSpan } from './extract-values.js';
import { analysisOf, type QueryAnalysis } from './parse-query.js';
import { numberWordValue } from './number-words.js';
import { schemaProfile, type Cue, type CueWord, type PropertyProfile, type SchemaProfile } from './property-profile.js';
import type { ClauseSpan, Token } from './text-analysis.js';
import type { BindResult, Binding, ParsedQuery, ValueKind } from './types.js';

const NEGATORS = new Set(['not', 'no', 'never', 'without', 'nothing', 'none', 'neither', 'nor', 'cannot', 'non', 'lack', 'lacks', 'lacking']);
const ZERO_WORDS = new Set(['no', 'zero', 'without', 'none']);
// Words that end a negation's reach.
const SCOPE_BREAKS = new Set([',', ';', ':', '.', '?', '!', '(', ')', 'and', 'but', 'while', 'whereas', 'although', 'though']);
// Between a property's words and its value these cost nothing ("rate of 24", "DSCR: 1.4", "age is 45").
const LINKERS = new Set(['of', 'be', 'at', 'about', 'around', 'approximately', 'roughly', 'totaling', 'totalling', 'equal', 'equals', ':', '=', '-', "'s", 'in']);
const SEPARATORS = new Set([',', ';', '(', ')', '.', '?', '!']);
const CONJUNCTIONS = new Set(['and', 'but', 'or', 'while']);
const TIME_NORMS = new Set(['year', 'month', 'week', 'day', 'hour']);
const ANTONYM_PREFIXES: readonly string[] = ['un', 'non', 'in', 'im', 'dis'];

/** Farthest (weighted tokens) a property's word may stand from its value. */
const MAX_DISTANCE = 8;
/** Weakest evidence that binds a value. */
const MIN_SCORE = 0.1;
/** Farthest apart two words of one phrase may stand. */
const MAX_GAP = 3;
const EPSILON = 1e-9;

interface WordMatch {
  score: number;
  /** Matched through an antonym prefix ("unverified" for "verified"). */
  negated: boolean;
}

/** Is `longer` an antonym of `shorter` by prefix ("unverified"/"verified", "inconsistent"/"consistent")? */
function antonymOf(longer: string, shorter: string): boolean {
  const d = longer.length - shorter.length;
  if (d < 2 || d > 3 || shorter.length < 4 || !longer.endsWith(shorter)) return false;
  return ANTONYM_PREFIXES.includes(longer.slice(0, d));
}

/** Does a token stand for a cue word: the same stem, a near stem, or its antonym? */
function matchWord(t: Token, w: CueWord): WordMatch | null {
  if (t.norm === w.norm || t.surface === w.surface || t.norm === w.surface || t.surface === w.norm) return { score: 1, negated: false };
  if (t.kind !== 'word') return null;
  const n = t.norm;
  const word = w.norm;
  const d = n.length - word.length;
  if (n.length >= 5 && word.length >= 5 && d <= 2 && d >= -2 && n.charCodeAt(0) === word.charCodeAt(0) && (d >= 0 ? n.startsWith(word) : word.startsWith(n))) {
    return { score: 0.8, negated: false };
  }
  if ((d >= 2 && d <= 3) || (d <= -2 && d >= -3) || Math.abs(t.surface.length - w.surface.length) >= 2) {
    if (antonymOf(n, word) || antonymOf(word, n) || antonymOf(t.surface, w.surface) || antonymOf(w.surface, t.surface)) return { score: 0.9, negated: true };
  }
  return null;
}

/** Where a cue's words occur together in one clause. */
interface Occurrence {
  cue: Cue;
  clause: number;
  positions: number[];
  first: number;
  last: number;
  matched: number;
  /** Indexes of the cue's words that occur. */
  matchedWords: number[];
  full: boolean;
  strength: number;
  antonym: boolean;
}

function findOccurrences(tokens: readonly Token[], clause: ClauseSpan, cue: Cue, idf: (norm: string) => number, skip: readonly boolean[]): Occurrence[] {
  const hits: Array<{ pos: number; word: number; score: number; negated: boolean }> = [];
  for (let p = clause.first; p <= clause.last; p += 1) {
    if (skip[p]) continue;
    const t = tokens[p]!;
    let best: { pos: number; word: number; score: number; negated: boolean } | null = null;
    for (const [wi, w] of cue.words.entries()) {
      const m = matchWord(t, w);
      if (m && (!best || m.score > best.score)) best = { pos: p, word: wi, ...m };
    }
    if (best) hits.push(best);
  }
  const occurrences: Occurrence[] = [];
  let group: typeof hits = [];
  const flush = () => {
    if (group.length === 0) return;
    const words = new Map<number, number>();
    for (const h of group) words.set(h.word, Math.max(words.get(h.word) ?? 0, h.score));
    let sum = 0;
    for (const [wi, score] of words) sum += idf(cue.words[wi]!.norm) * score;
    const coverage = words.size / cue.words.length;
    occurrences.push({
      cue,
      clause: clause.index,
      positions: group.map((h) => h.pos),
      first: group[0]!.pos,
      last: group[group.length - 1]!.pos,
      matched: words.size,
      matchedWords: [...words.keys()],
      full: words.size === cue.words.length,
      strength: cue.weight * sum * (0.5 + 0.5 * coverage),
      antonym: group.some((h) => h.negated),
    });
    group = [];
  };
  for (const h of hits) {
    const prev = group[group.length - 1];
    if (prev && h.pos - prev.pos > MAX_GAP) flush();
    group.push(h);
  }
  flush();
  return occurrences;
}

/** The weighted number of tokens strictly between two positions. */
function gapBetween(tokens: readonly Token[], from: number, to: number): number {
  let d = 0;
  for (let i = from + 1; i < to; i += 1) {
    const t = tokens[i]!;
    if (LINKERS.has(t.lemma) || LINKERS.has(t.lower)) continue;
    if (SEPARATORS.has(t.text)) d += 2;
    else if (CONJUNCTIONS.has(t.lower)) d += 1.5;
    else d += 1;
  }
  return d;
}

function distanceTo(tokens: readonly Token[], occ: Occurrence, first: number, last: number): number {
  let best = Infinity;
  for (const p of occ.positions) {
    let d: number;
    if (p >= first && p <= last) d = 0;
    else if (p < first) d = gapBetween(tokens, p, first);
    else d = gapBetween(tokens, last, p);
    if (d < best) best = d;
  }
  return best;
}

/** Is a negator in reach of an occurrence: just before it, inside it, or just after it? */
function isNegated(tokens: readonly Token[], clause: ClauseSpan, occ: Occurrence): boolean {
  if (occ.antonym) return true;
  const cueHasNegator = occ.cue.words.some((w) => NEGATORS.has(w.norm));
  const negator = (t: Token) => !cueHasNegator && (NEGATORS.has(t.lemma) || NEGATORS.has(t.lower));
  const inOcc = new Set(occ.positions);
  for (let p = occ.first; p <= occ.last; p += 1) if (!inOcc.has(p) && negator(tokens[p]!)) return true;
  for (let p = occ.first - 1; p >= Math.max(clause.first, occ.first - 4); p -= 1) {
    const t = tokens[p]!;
    if (SCOPE_BREAKS.has(t.lower)) break;
    if (negator(t)) return true;
  }
  for (let p = occ.last + 1; p <= Math.min(clause.last, occ.last + 3); p += 1) {
    const t = tokens[p]!;
    if (SCOPE_BREAKS.has(t.lower)) break;
    if (negator(t)) return true;
  }
  return false;
}

/** An explicit answer after a boolean's words ("police report: yes", "exempt = false"). */
function explicitAnswer(tokens: readonly Token[], clause: ClauseSpan, occ: Occurrence): boolean | null {
  for (let p = occ.last + 1; p <= Math.min(clause.last, occ.last + 2); p += 1) {
    const t = tokens[p]!;
    if (t.text === ':' || t.text === '=' || t.lemma === 'be') continue;
    if (t.lower === 'yes' || t.lower === 'true') return true;
    if (t.lower === 'no' || t.lower === 'false') return false;
    return null;
  }
  return null;
}

interface Compat {
  value: number | string;
  factor: number;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Can this value bind to this property, as what value, and how likely is the pairing? */
function compatibility(span: ValueSpan, p: PropertyProfile): Compat | null {
  const v = span.value;
  if (p.date) return v.kind === 'date' ? { value: v.value, factor: 1.5 } : null;
  if (p.type !== 'number' && p.type !== 'integer') return null;
  if (v.kind === 'date' || typeof v.value !== 'number') return null;
  let x = v.value;
  let factor = 1;
  switch (v.kind) {
    case 'money':
      if (p.timeUnit) return null;
      factor = p.money ? 1.2 : 0.8;
      break;
    case 'percent':
      if (p.timeUnit) return null;
      if (p.percentStyle === 'fraction') x = clean(x / 100);
      factor = p.percentish ? 1.2 : 0.7;
      break;
    case 'duration':
      if (!p.timeUnit || !v.unit) return null;
      if (v.unit === p.timeUnit) factor = 1.5;
      else {
        x = round6((x * HOURS_PER[v.unit]) / HOURS_PER[p.timeUnit]);
        factor = 0.4;
      }
      break;
    default:
      break;
  }
  if (p.type === 'integer' && !Number.isInteger(x)) return null;
  return { value: x, factor };
}

/** A value that is part of a property's name ("in the last 12 months", "within 75 miles"), not a value. */
function isNamePart(tokens: readonly Token[], span: ValueSpan, profiles: readonly PropertyProfile[]): boolean {
  const v = span.value;
  if ((v.kind !== 'number' && v.kind !== 'duration') || typeof v.value !== 'number') return false;
  const clause = tokens[span.first]!.clause;
  const near = (p: number, word: CueWord | undefined) => {
    const t = tokens[p];
    return word !== undefined && t !== undefined && t.clause === clause && matchWord(t, word) !== null;
  };
  for (const p of profiles) {
    for (const cue of p.cues) {
      if (cue.source === 'description') continue;
      for (const [k, w] of cue.words.entries()) {
        const n = /^\d+(\.\d+)?$/.test(w.norm) ? Number(w.norm) : numberWordValue(w.surface);
        if (n !== v.value) continue;
        // The cue's words on either side of its number must stand on the same side of the value.
        const before = cue.words[k - 1];
        let after = cue.words[k + 1];
        if (v.kind === 'duration' && after !== undefined && TIME_NORMS.has(after.norm)) after = cue.words[k + 2];
        if (near(span.first - 1, before) || near(span.first - 2, before) || near(span.last + 1, after) || near(span.last + 2, after)) return true;
      }
    }
  }
  return false;
}

interface Candidate {
  span: ValueSpan;
  profile: PropertyProfile;
  value: number | string;
  score: number;
}

/** Binds a parsed query's values, booleans and enum values to one unit's input properties. */
export function bindInputs(parsed: ParsedQuery, inputSchema: IoSchema): BindResult {
  const qa = analysisOf(parsed);
  const schema = schemaProfile(inputSchema);
  const binder = new Binder(qa, schema);
  binder.bindValues();
  binder.bindBooleans();
  binder.bindEnums();
  binder.bindTexts();
  const bindings = [...binder.bound.values()].sort((a, b) => a.order - b.order).map((b) => b.binding);
  const inputs: Record<string, unknown> = {};
  for (const b of bindings) inputs[b.name] = b.value;
  const missing = (inputSchema.required ?? []).filter((name) => !(name in inputs));
  return { inputs, bindings, missing };
}

class Binder {
  readonly bound = new Map<string, { order: number; binding: Binding }>();
  private readonly tokens: readonly Token[];
  private readonly clauses: readonly ClauseSpan[];
  /** Tokens in quotes: literal text, never a property's words. */
  private readonly quoted: boolean[];
  private readonly occurrenceCache = new Map<string, Occurrence[]>();
  private readonly wordHitCache = new Map<string, Map<CueWord, Array<{ pos: number; score: number }>>>();
  /** The value each token belongs to, if any. */
  private readonly valueAt: Array<ValueSpan | undefined> = [];

  constructor(
    private readonly qa: QueryAnalysis,
    private readonly schema: SchemaProfile,
  ) {
    this.tokens = qa.analysis.tokens;
    this.clauses = qa.analysis.clauses;
    this.quoted = this.tokens.map((t) => qa.quotes.some((q) => t.start >= q.start && t.end <= q.end));
  }

  private bind(p: PropertyProfile, value: unknown, kind: ValueKind, clause: number | null, raw: string): void {
    this.bound.set(p.name, { order: p.order, binding: { name: p.name, value, kind, clause, raw } });
  }

  private occurrences(p: PropertyProfile, clause: ClauseSpan, numeric: boolean): Occurrence[] {
    const key = `${p.name}\u0000${clause.index}\u0000${numeric}`;
    let found = this.occurrenceCache.get(key);
    if (!found) {
      const idf = numeric ? (norm: string) => this.schema.idf.get(norm) ?? 1 : () => 1;
      found = p.cues.flatMap((cue) => findOccurrences(this.tokens, clause, cue, idf, this.quoted));
      this.occurrenceCache.set(key, found);
    }
    return found;
  }

  private rawOf(first: number, last: number): string {
    return this.qa.analysis.text.slice(this.tokens[first]!.start, this.tokens[last]!.end);
  }

  /** Where each word of a property's cues occurs in a clause, quoted text left out. */
  private wordHits(p: PropertyProfile, clause: ClauseSpan): Map<CueWord, Array<{ pos: number; score: number }>> {
    const key = `${p.name}\u0000${clause.index}\u0000words`;
    let hits = this.wordHitCache.get(key);
    if (!hits) {
      hits = new Map();
      for (const cue of p.cues) {
        for (const w of cue.words) {
          if (hits.has(w)) continue;
          const found: Array<{ pos: number; score: number }> = [];
          for (let pos = clause.first; pos <= clause.last; pos += 1) {
            if (this.quoted[pos]) continue;
            const m = matchWord(this.tokens[pos]!, w);
            if (m && !m.negated) found.push({ pos, score: m.score });
          }
          hits.set(w, found);
        }
      }
      this.wordHitCache.set(key, hits);
    }
    return hits;
  }

  /**
   * How strongly a property's words point at a value: for each cue, each of its words counts by
   * how distinctive it is (idf) and how near it stands; the best cue counts.
   */
  private evidence(p: PropertyProfile, span: ValueSpan, clause: ClauseSpan): number {
    const hits = this.wordHits(p, clause);
    const owner = this.valueAt;
    let best = 0;
    for (const cue of p.cues) {
      let sum = 0;
      let coverage = 0;
      for (const w of cue.words) {
        let near = 0;
        for (const h of hits.get(w) ?? []) {
          const o = owner[h.pos];
          // Another value's words ("1,400 hours") describe that value, not this one.
          if (o !== undefined && o !== span) continue;
          if (o === span) {
            // The value's own number is no name, and its unit ("days") matches a property's unit
            // hint ("Leave (days)") through compatibility(), not as a name; its unit does count
            // for a name that says it ("12 months" -> months_of_service).
            if (span.numberTokens.includes(h.pos) || cue.source === 'unit') continue;
          }
          const d = h.pos >= span.first && h.pos <= span.last ? 0 : h.pos < span.first ? gapBetween(this.tokens, h.pos, span.first) : gapBetween(this.tokens, span.last, h.pos);
          if (d > MAX_DISTANCE) continue;
          near = Math.max(near, h.score / (1 + 0.4 * d));
        }
        sum += (this.schema.idf.get(w.norm) ?? 1) * near;
        coverage += near;
      }
      if (sum === 0) continue;
      best = Math.max(best, cue.weight * sum * (0.5 + (0.5 * coverage) / cue.words.length));
    }
    return best;
  }

  /** "no prior claims", "no tax withheld": a zero for a count or amount named right after "no". */
  private zeroCandidates(targets: readonly PropertyProfile[]): Candidate[] {
    const out: Candidate[] = [];
    for (const p of targets) {
      if (p.date) continue;
      for (const clause of this.clauses) {
        for (const occ of this.occurrences(p, clause, true)) {
          if (!occ.full || occ.cue.source === 'description' || occ.cue.source === 'unit') continue;
          const before = this.tokens[occ.first - 1];
          if (!before || before.clause !== clause.index || !ZERO_WORDS.has(before.lower)) continue;
          // A number among the words ("no 3-year claims") is the value, not zero.
          if (this.qa.spans.some((s) => s.first >= occ.first - 1 && s.first <= occ.last)) continue;
          const raw = this.rawOf(occ.first - 1, occ.last);
          const span: ValueSpan = {
            value: { kind: 'number', value: 0, raw, start: before.start, end: this.tokens[occ.last]!.end, clause: clause.index },
            first: occ.first - 1,
            last: occ.last,
            numberTokens: [occ.first - 1],
          };
          out.push({ span, profile: p, value: 0, score: occ.strength * 1.5 });
        }
      }
    }
    return out;
  }

  /** Numbers, money, percentages, durations and dates: nearest property words win. */
  bindValues(): void {
    const { profiles } = this.schema;
    const targets = profiles.filter((p) => p.type === 'number' || p.type === 'integer' || p.date);
    const spans = this.qa.spans.filter((s) => !isNamePart(this.tokens, s, profiles));
    for (const s of spans) for (let i = s.first; i <= s.last; i += 1) this.valueAt[i] = s;
    const candidates: Candidate[] = this.zeroCandidates(targets);
    for (const span of spans) {
      const clause = this.clauses[span.value.clause];
      if (!clause) continue;
      for (const p of targets) {
        const compat = compatibility(span, p);
        if (!compat) continue;
        const score = this.evidence(p, span, clause) * compat.factor;
        if (score >= MIN_SCORE) candidates.push({ span, profile: p, value: compat.value, score });
      }
    }
    candidates.sort((a, b) => b.score - a.score || a.span.value.start - b.span.value.start || a.profile.order - b.profile.order);
    const usedSpans = new Set<ValueSpan>();
    const usedProps = new Set<string>();
    for (const c of candidates) {
      if (usedSpans.has(c.span) || usedProps.has(c.profile.name)) continue;
      const tie = candidates.find(
        (o) =>
          o !== c &&
          Math.abs(o.score - c.score) < EPSILON &&
          ((o.span === c.span && o.profile !== c.profile && !usedProps.has(o.profile.name)) ||
            (o.profile === c.profile && o.span !== c.span && !usedSpans.has(o.span))),
      );
      if (tie) {
        // Equally good either way: bind neither.
        if (tie.span === c.span) usedSpans.add(c.span);
        else usedProps.add(c.profile.name);
        continue;
      }
      usedSpans.add(c.span);
      usedProps.add(c.profile.name);
      this.bind(c.profile, c.value, c.span.value.kind, c.span.value.clause, c.span.value.raw);
    }
    this.bindSoleCandidates(spans, targets, usedSpans);
  }

  /**
   * A duration, date or amount of money with no property words near it binds when the schema has
   * exactly one property of that sort and the query exactly one unbound value of it.
   */
  private bindSoleCandidates(spans: readonly ValueSpan[], targets: readonly PropertyProfile[], used: Set<ValueSpan>): void {
    const sorts: Array<[(s: ValueSpan) => boolean, (p: PropertyProfile) => boolean]> = [
      [(s) => s.value.kind === 'duration', (p) => p.timeUnit !== null],
      [(s) => s.value.kind === 'date', (p) => p.date],
      [(s) => s.value.kind === 'money', (p) => p.money && !p.date && p.timeUnit === null],
    ];
    for (const [isValue, isProperty] of sorts) {
      const props = targets.filter(isProperty);
      const free = spans.filter((s) => isValue(s) && !used.has(s));
      const [p] = props;
      const [span] = free;
      if (props.length !== 1 || free.length !== 1 || !p || !span || this.bound.has(p.name)) continue;
      const compat = compatibility(span, p);
      if (!compat) continue;
      used.add(span);
      this.bind(p, compat.value, span.value.kind, span.value.clause, span.value.raw);
    }
  }

  /**
   * Does an occurrence name a boolean? All its words, or at least half of them including every
   * word no other boolean input of the unit uses ("used regularly and exclusively": "regularly"
   * names regular_use, whose other word "use" exclusive_use shares).
   */
  private namesBoolean(occ: Occurrence): boolean {
    const { cue } = occ;
    if (!cue.whole || occ.last - occ.first + 1 > cue.words.length + 4) return false;
    if (occ.full) return true;
    if (occ.matched * 2 < cue.words.length) return false;
    return cue.words.every((w, i) => occ.matchedWords.includes(i) || (this.schema.booleanIdf.get(w.norm) ?? 1) < 1);
  }

  /** A boolean is true when one of its phrases occurs, false when negated there. */
  bindBooleans(): void {
    const chosen: Array<{ p: PropertyProfile; occ: Occurrence; clause: ClauseSpan }> = [];
    const better = (a: Occurrence, b: Occurrence) =>
      a.matched !== b.matched ? a.matched > b.matched : a.full !== b.full ? a.full : a.strength > b.strength + EPSILON;
    for (const p of this.schema.profiles) {
      if (p.type !== 'boolean') continue;
      let best: { occ: Occurrence; clause: ClauseSpan } | null = null;
      for (const clause of this.clauses) {
        for (const occ of this.occurrences(p, clause, false)) {
          if (!this.namesBoolean(occ)) continue;
          if (!best || better(occ, best.occ)) best = { occ, clause };
        }
      }
      if (best) chosen.push({ p, ...best });
    }
    // Where one property's phrase lies inside another's, the longer phrase names the property.
    const dropped = new Set<string>();
    for (const a of chosen) {
      for (const b of chosen) {
        if (a === b) continue;
        const inside = a.occ.positions.every((pos) => b.occ.positions.includes(pos));
        if (!inside) continue;
        if (b.occ.positions.length > a.occ.positions.length) dropped.add(a.p.name);
        else if (b.occ.positions.length === a.occ.positions.length) dropped.add(a.p.name).add(b.p.name);
      }
    }
    for (const { p, occ, clause } of chosen) {
      if (dropped.has(p.name)) continue;
      const value = explicitAnswer(this.tokens, clause, occ) ?? !isNegated(this.tokens, clause, occ);
      this.bind(p, value, 'boolean', clause.index, this.rawOf(occ.first, occ.last));
    }
  }

  /** An enum binds to the value (or synonym) the query names; nearest to the property's words wins. */
  bindEnums(): void {
    for (const p of this.schema.profiles) {
      if (!p.enumOptions || this.bound.has(p.name)) continue;
      type Hit = { value: string; first: number; last: number; clause: ClauseSpan; negated: boolean; score: number; cueDistance: number };
      const hits: Hit[] = [];
      for (const clause of this.clauses) {
        const cueOccs = this.occurrences(p, clause, false);
        for (const option of p.enumOptions) {
          for (const phrase of option.phrases) {
            for (const [first, last] of this.phraseMatches(clause, phrase)) {
              const cues = cueOccs.filter((o) => o.last < first || o.first > last);
              const d = cues.length > 0 ? Math.min(...cues.map((o) => distanceTo(this.tokens, o, first, last))) : Infinity;
              if (option.weak && d > 3) continue;
              const negated = this.negatedBefore(clause, first);
              hits.push({
                value: option.value,
                first,
                last,
                clause,
                negated,
                score: 1 + (Number.isFinite(d) ? 1 / (1 + 0.4 * d) : 0) + 0.01 * (last - first),
                cueDistance: d,
              });
            }
          }
        }
      }
      // A shorter value inside a longer one's match ("water" in "sudden water discharge") yields.
      const kept = hits.filter((h) => !hits.some((o) => o !== h && o.value !== h.value && o.first <= h.first && o.last >= h.last && o.last - o.first > h.last - h.first));
      const positive = kept.filter((h) => !h.negated).sort((a, b) => b.score - a.score || a.first - b.first);
      const top = positive[0];
      if (top) {
        if (positive.some((h) => h.value !== top.value && Math.abs(h.score - top.score) < EPSILON)) continue;
        this.bind(p, top.value, 'enum', top.clause.index, this.rawOf(top.first, top.last));
        continue;
      }
      // "not a temporary worker": of two values, the one not negated — when the property's own
      // words stand by ("worker" for worker type), so a homonym elsewhere cannot flip it.
      const negatedValues = new Set(kept.map((h) => h.value));
      if (p.enumOptions.length === 2 && negatedValues.size === 1 && kept.some((h) => h.cueDistance <= 4)) {
        const other = p.enumOptions.find((o) => !negatedValues.has(o.value))!;
        const h = kept[0]!;
        this.bind(p, other.value, 'enum', h.clause.index, this.rawOf(Math.max(h.clause.first, h.first - 3), h.last));
      }
    }
  }

  /** Token spans in a clause where a phrase's words occur in order, at most two tokens apart. */
  private phraseMatches(clause: ClauseSpan, phrase: readonly CueWord[]): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let start = clause.first; start <= clause.last; start += 1) {
      if (this.quoted[start]) continue;
      const m = matchWord(this.tokens[start]!, phrase[0]!);
      if (!m || m.negated) continue;
      let pos = start;
      let ok = true;
      for (let k = 1; k < phrase.length && ok; k += 1) {
        ok = false;
        for (let q = pos + 1; q <= Math.min(clause.last, pos + 3); q += 1) {
          const t = this.tokens[q]!;
          if (SEPARATORS.has(t.text)) break;
          const mk = matchWord(t, phrase[k]!);
          if (mk && !mk.negated) {
            pos = q;
            ok = true;
            break;
          }
        }
      }
      if (ok) out.push([start, pos]);
    }
    return out;
  }

  private negatedBefore(clause: ClauseSpan, first: number): boolean {
    for (let p = first - 1; p >= Math.max(clause.first, first - 3); p -= 1) {
      const t = this.tokens[p]!;
      if (SCOPE_BREAKS.has(t.lower)) return false;
      if (NEGATORS.has(t.lemma) || NEGATORS.has(t.lower)) return true;
    }
    return false;
  }

  /** Free text: quoted text right after the property's words, or the jurisdiction for a state/country input. */
  bindTexts(): void {
    const texts = this.schema.profiles.filter((p) => p.type === 'string' && !p.enumOptions && !p.date && !this.bound.has(p.name));
    const candidates: Array<{ p: PropertyProfile; quote: number; score: number }> = [];
    this.qa.quotes.forEach((q, qi) => {
      const open = this.tokens.findIndex((t) => t.end > q.start - 1 && t.start >= q.start - 1);
      if (open < 0) return;
      const clause = this.clauses[this.tokens[open]!.clause];
      if (!clause) return;
      for (const p of texts) {
        if (p.region) continue;
        let best = 0;
        for (const occ of this.occurrences(p, clause, false)) {
          if (occ.last >= open) continue;
          const d = gapBetween(this.tokens, occ.last, open);
          if (d > 3) continue;
          best = Math.max(best, occ.strength / (1 + 0.4 * d));
        }
        if (best > 0) candidates.push({ p, quote: qi, score: best });
      }
    });
    candidates.sort((a, b) => b.score - a.score || a.quote - b.quote || a.p.order - b.p.order);
    const usedQuotes = new Set<number>();
    for (const c of candidates) {
      if (usedQuotes.has(c.quote) || this.bound.has(c.p.name)) continue;
      usedQuotes.add(c.quote);
      const q = this.qa.quotes[c.quote]!;
      const token = this.tokens.find((t) => t.start >= q.start);
      this.bind(c.p, q.text, 'text', token ? token.clause : null, q.text);
    }
    const mention = this.qa.jurisdiction;
    if (!mention) return;
    for (const p of texts) {
      if (!p.region || this.bound.has(p.name)) continue;
      let value: string | null = mention.code;
      if (p.region === 'state') value = /^US-([A-Z]{2})$/.exec(mention.code)?.[1] ?? null;
      else if (p.region === 'country') value = mention.code.split('-')[0]!;
      if (!value) continue;
      const token = this.tokens.find((t) => t.start >= mention.start);
      this.bind(p, value, 'text', token ? token.clause : null, this.qa.analysis.text.slice(mention.start, mention.end));
    }
  }
}
