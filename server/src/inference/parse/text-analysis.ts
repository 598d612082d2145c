/**
 * Tokens, lemmas, stems and clauses of a text, from wink-nlp's English lite model.
 *
 * The model is loaded once, at import. Only the sentence-boundary and part-of-speech stages run
 * (lemmas need part of speech); wink's entity stage is not used: numbers, money, percentages and
 * durations are read from the tokens by extract-values.ts, which needs their values, not only their
 * spans.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

const nlp = winkNLP(model, ['sbd', 'pos']);
const its = nlp.its;

// wink's typings do not match some of its own `its` readers (lemma, span); at run time `out`
// takes each of them, so they are passed through this one cast.
type OutReader = Parameters<ReturnType<ReturnType<typeof nlp.readDoc>['tokens']>['out']>[0];
const reader = (f: unknown): OutReader => f as OutReader;

const stemAddon: unknown = model.addons.stem;
if (typeof stemAddon !== 'function') throw new Error('wink-eng-lite-web-model has no stem addon');
const stemWord = stemAddon as (word: string) => string;

export type TokenKind = 'word' | 'number' | 'currency' | 'punct' | 'symbol';

/** One token of an analysed text. */
export interface Token {
  index: number;
  /** The text as written. */
  text: string;
  lower: string;
  /** Lower-case lemma ("withdrew" -> "withdraw"). */
  lemma: string;
  /** Porter2 stem of the lemma: the form words are compared by. */
  norm: string;
  /** Porter2 stem of the word as written: lemmas depend on context ("a written contract" -> "write"). */
  surface: string;
  kind: TokenKind;
  /** A stop word in wink's list. */
  stop: boolean;
  start: number;
  end: number;
  /** Whitespace precedes the token. */
  spaced: boolean;
  sentence: number;
  clause: number;
}

/** A clause: a run of tokens answering one part of the question. */
export interface ClauseSpan {
  index: number;
  first: number;
  last: number;
  start: number;
  end: number;
}

export interface Analysis {
  text: string;
  tokens: Token[];
  clauses: ClauseSpan[];
}

// The stem cache is bounded so a long-running server does not grow it without limit.
const NORM_CACHE_LIMIT = 20000;
const normCache = new Map<string, string>();

/** The comparison form of a word: the Porter2 stem of its (lower-case) lemma. */
export function normalizeWord(lemma: string): string {
  const cached = normCache.get(lemma);
  if (cached !== undefined) return cached;
  const norm = /[a-z]/.test(lemma) && !/\d/.test(lemma) ? stemWord(lemma) : lemma;
  if (normCache.size >= NORM_CACHE_LIMIT) normCache.clear();
  normCache.set(lemma, norm);
  return norm;
}

const lemmaCache = new Map<string, string>();

/**
 * The lemma of a lower-case word read on its own. wink tags a capitalised word that opens a
 * sentence as a proper noun and leaves it as written ("Employees"); read alone it is lemmatised.
 */
function lemmaOfWord(lower: string): string {
  const cached = lemmaCache.get(lower);
  if (cached !== undefined) return cached;
  const lemma = (nlp.readDoc(lower).tokens().out(reader(its.lemma)) as unknown as string[])[0]?.toLowerCase() ?? lower;
  if (lemmaCache.size >= NORM_CACHE_LIMIT) lemmaCache.clear();
  lemmaCache.set(lower, lemma);
  return lemma;
}

function tokenKind(winkType: string): TokenKind | null {
  switch (winkType) {
    case 'number':
      return 'number';
    case 'currency':
      return 'currency';
    case 'punctuation':
      return 'punct';
    case 'symbol':
      return 'symbol';
    case 'tabCRLF':
      return null;
    default:
      return 'word';
  }
}

const WH_STARTERS = new Set(['what', 'how', 'whether', 'why', 'when']);
const AUX_STARTERS = new Set([
  'is', 'are', 'was', 'were', 'does', 'do', 'did', 'can', 'could', 'should', 'would', 'will', 'must', 'may', 'has', 'have', 'had',
]);
const SUBJECTS = new Set([
  'i', 'we', 'you', 'he', 'she', 'they', 'it', 'this', 'that', 'there', 'the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their',
]);
const CONJUNCTIONS = new Set(['and', 'but', 'or', 'so']);
const SEPARATORS = new Set([',', ':', '—', '–']);

/** Does a new clause (a new question or statement) start at token `i`? */
function startsClause(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  if (!t) return false;
  if (WH_STARTERS.has(t.lower)) return true;
  if (!AUX_STARTERS.has(t.lower)) return false;
  // Inversion ("does she", "is the loan") marks a question; "and is not a temp" continues one.
  const next = tokens[i + 1];
  return next !== undefined && next.kind === 'word' && SUBJECTS.has(next.lower);
}

/**
 * Splits each sentence at semicolons, and at a comma, colon, dash or conjunction that a new
 * question or inverted clause follows ("…, and does she qualify?", "…: how much vacation?").
 */
function splitClauses(tokens: Token[], sentences: Array<[number, number]>): ClauseSpan[] {
  const spans: Array<[number, number]> = [];
  for (const [first, last] of sentences) {
    let start = first;
    let i = first;
    while (i <= last) {
      const t = tokens[i];
      if (!t) break;
      let next = -1;
      if (t.text === ';') next = i + 1;
      else if (SEPARATORS.has(t.text) || CONJUNCTIONS.has(t.lower)) {
        let j = i + 1;
        if (SEPARATORS.has(t.text) && tokens[j] && CONJUNCTIONS.has(tokens[j]!.lower)) j += 1;
        if (j <= last && startsClause(tokens, j)) next = j;
      }
      if (next >= 0) {
        if (i - 1 >= start) spans.push([start, i - 1]);
        start = next;
        i = next;
        continue;
      }
      i += 1;
    }
    if (last >= start) spans.push([start, last]);
  }
  const clauses: ClauseSpan[] = [];
  for (const [first, last] of spans) {
    // A clause of punctuation only ("?") joins the previous one.
    const hasContent = tokens.slice(first, last + 1).some((t) => t.kind !== 'punct');
    const prev = clauses[clauses.length - 1];
    if (!hasContent && prev) {
      prev.last = last;
      prev.end = tokens[last]!.end;
      continue;
    }
    clauses.push({ index: clauses.length, first, last, start: tokens[first]!.start, end: tokens[last]!.end });
  }
  for (const c of clauses) for (let i = c.first; i <= c.last; i += 1) tokens[i]!.clause = c.index;
  return clauses;
}

const HYPHENATED_WORDS = /^[A-Za-z]+(?:-[A-Za-z]+)+$/;

function pushToken(tokens: Token[], text: string, lemma: string, kind: TokenKind, stop: boolean, start: number, spaced: boolean, sentence: number): void {
  const lower = text.toLowerCase();
  tokens.push({
    index: tokens.length,
    text,
    lower,
    lemma,
    norm: normalizeWord(lemma),
    surface: normalizeWord(lower),
    kind,
    stop,
    start,
    end: start + text.length,
    spaced,
    sentence,
    clause: 0,
  });
}

/** Tokenises, lemmatises and splits a text into sentences and clauses. */
export function analyze(text: string): Analysis {
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out();
  const types = doc.tokens().out(reader(its.type)) as unknown as string[];
  const lemmas = doc.tokens().out(reader(its.lemma)) as unknown as string[];
  const stops = doc.tokens().out(reader(its.stopWordFlag)) as unknown as boolean[];
  const spaces = doc.tokens().out(reader(its.precedingSpaces)) as unknown as string[];
  const sentenceOf = new Array<number>(values.length).fill(0);
  const sentenceSpans = doc.sentences().out(reader(its.span)) as unknown as Array<[number, number]>;
  sentenceSpans.forEach(([first, last], s) => {
    for (let i = first; i <= last; i += 1) sentenceOf[i] = s;
  });

  const tokens: Token[] = [];
  const firstTokenOfSentence = new Map<number, number>();
  let offset = 0;
  for (let w = 0; w < values.length; w += 1) {
    const value = values[w]!;
    const space = spaces[w] ?? '';
    offset += space.length;
    const kind = tokenKind(types[w] ?? 'word');
    const sentence = sentenceOf[w]!;
    if (kind !== null) {
      const opensSentence = !firstTokenOfSentence.has(sentence);
      if (opensSentence) firstTokenOfSentence.set(sentence, tokens.length);
      let lemma = (lemmas[w] ?? value).toLowerCase();
      if (opensSentence && /^[A-Z][a-z]+$/.test(value) && lemma === value.toLowerCase()) lemma = lemmaOfWord(lemma);
      if (kind === 'word' && HYPHENATED_WORDS.test(value)) {
        // "non-exempt" -> "non", "exempt": parts compare like separate words.
        let partStart = offset;
        value.split('-').forEach((part, p) => {
          pushToken(tokens, part, part.toLowerCase(), 'word', false, partStart, p === 0 ? space.length > 0 : false, sentence);
          partStart += part.length + 1;
        });
      } else {
        pushToken(tokens, value, lemma, kind, stops[w] === true, offset, space.length > 0, sentence);
      }
    }
    offset += value.length;
  }

  const sentences: Array<[number, number]> = [];
  const sentenceIds = [...new Set(tokens.map((t) => t.sentence))];
  for (const s of sentenceIds) {
    const first = firstTokenOfSentence.get(s)!;
    let last = first;
    while (tokens[last + 1] && tokens[last + 1]!.sentence === s) last += 1;
    sentences.push([first, last]);
  }
  const clauses = tokens.length > 0 ? splitClauses(tokens, sentences) : [];
  return { text, tokens, clauses };
}

