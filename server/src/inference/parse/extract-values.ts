/**
 * Numbers, money, percentages and durations read from a query's tokens; dates come from dates.ts.
 *
 *   number    12 · 1,250 · 0.5 · twelve · twenty-two · 1.2 million · 2 1/2 · 3.0x · half
 *   money     $400,000 · $400k · $1.2M · USD 5,000 · 650 dollars · €3,000 · 15 thousand dollars
 *   percent   45% · 45 percent · forty-five per cent · 1.2 percentage points
 *   duration  12 years · 18-month · a 45-year-old · 72 hours' · two and a half years · a year and a half
 *             · 1 year and 6 months (-> 18 months) · 3 business days
 *
 * A value never spans two clauses. A rate's period is not a duration ("$8,500 a month" is money).
 */
import type { FoundDate } from './dates.js';
import { isNumberWord, parseDigits, parseSlash, readNumberWords, scaleOf } from './number-words.js';
import type { Analysis, Token } from './text-analysis.js';
import type { DurationUnit, ExtractedValue } from './types.js';

/** A value and the tokens it was read from. */
export interface ValueSpan {
  value: ExtractedValue;
  first: number;
  last: number;
  /** The tokens holding the number itself (not its unit or currency). */
  numberTokens: number[];
}

export const DURATION_UNITS: Readonly<Record<string, DurationUnit>> = {
  year: 'years', years: 'years', yr: 'years', yrs: 'years',
  month: 'months', months: 'months', mo: 'months', mos: 'months',
  week: 'weeks', weeks: 'weeks', wk: 'weeks', wks: 'weeks', workweek: 'weeks', workweeks: 'weeks',
  day: 'days', days: 'days',
  hour: 'hours', hours: 'hours', hr: 'hours', hrs: 'hours',
};
const SINGULAR_UNITS = new Set(['year', 'month', 'week', 'day', 'hour']);
const UNIT_QUALIFIERS = new Set(['business', 'calendar', 'working', 'work']);

/** Hours in each unit: a year is 365.25 days, a month a twelfth of it. */
export const HOURS_PER: Readonly<Record<DurationUnit, number>> = { hours: 1, days: 24, weeks: 168, months: 730.5, years: 8766 };

const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR' };
const CURRENCY_CODES = new Set(['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'JPY', 'INR', 'MXN', 'NZD', 'SEK', 'NOK', 'DKK']);
const CURRENCY_WORDS: Readonly<Record<string, string>> = { dollar: 'USD', dollars: 'USD', buck: 'USD', bucks: 'USD', euro: 'EUR', euros: 'EUR' };
// "a month" after these is a rate's period ("$900 a week", "40 hours a week", "twice a year").
const RATE_LEADS = new Set(['per', 'once', 'twice', 'times']);

/** Rounds away floating-point noise (0.1 * 3) without losing written precision. */
export function clean(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

function lowerAt(tokens: readonly Token[], i: number, limit: number): string | undefined {
  return i <= limit ? tokens[i]?.lower : undefined;
}

interface NumberRead {
  value: number;
  last: number;
  numberTokens: number[];
}

function isRateContext(tokens: readonly Token[], i: number): boolean {
  const prev = tokens[i - 1];
  if (!prev) return false;
  return prev.kind === 'number' || prev.kind === 'currency' || prev.lower in DURATION_UNITS || RATE_LEADS.has(prev.lower) ||
    prev.lower === '%' || prev.lower === 'percent' || prev.lower in CURRENCY_WORDS || CURRENCY_CODES.has(prev.text);
}

/** The number starting at token `j`, in digits or words; null when none starts there. */
function readNumber(tokens: readonly Token[], j: number, limit: number, money: boolean): NumberRead | null {
  const t = tokens[j];
  if (!t || j > limit) return null;
  if (t.kind === 'number') {
    const slash = parseSlash(t.text);
    let value: number;
    if (slash) value = slash.value;
    else {
      const digits = parseDigits(t.text);
      if (digits === null) return null;
      value = digits;
    }
    const after = tokens[j + 1];
    const after2 = tokens[j + 2];
    // A code, not a quantity: "1099-NEC".
    if (after?.text === '-' && !after.spaced && after2 && !after2.spaced && /^[A-Z]{2,}$/.test(after2.text)) return null;
    let last = j;
    const numberTokens = [j];
    if (!slash && after && after.kind === 'number' && after.spaced && j + 1 <= limit) {
      const fraction = parseSlash(after.text);
      if (fraction?.fraction) {
        value += fraction.value;
        last = j + 1;
        numberTokens.push(j + 1);
      }
    }
    const scaleToken = tokens[last + 1];
    if (scaleToken && last + 1 <= limit) {
      const scale = scaleOf(scaleToken, !scaleToken.spaced, money);
      if (scale !== null) {
        value *= scale;
        last += 1;
      }
    }
    return { value: clean(value), last, numberTokens };
  }
  if (t.lower === 'half') {
    // "half a year", "half-time"
    const next = lowerAt(tokens, j + 1, limit);
    const unit = lowerAt(tokens, j + 2, limit);
    if ((next === 'a' || next === 'an') && unit !== undefined && SINGULAR_UNITS.has(unit)) return { value: 0.5, last: j + 1, numberTokens: [j] };
    return { value: 0.5, last: j, numberTokens: [j] };
  }
  if (t.lower === 'a' || t.lower === 'an') {
    const next = lowerAt(tokens, j + 1, limit);
    if (next === 'half') return { value: 0.5, last: j + 1, numberTokens: [j + 1] };
    const words = readNumberWords(tokens, j, limit);
    if (words) return { value: words.value, last: words.last, numberTokens: range(j, words.last) };
    // "for a year", "a year and a half" — but not the period of a rate.
    if (next !== undefined && SINGULAR_UNITS.has(next) && !isRateContext(tokens, j)) return { value: 1, last: j, numberTokens: [j] };
    return null;
  }
  if (isNumberWord(t.lower)) {
    const words = readNumberWords(tokens, j, limit);
    if (words) return { value: words.value, last: words.last, numberTokens: range(j, words.last) };
  }
  return null;
}

function range(first: number, last: number): number[] {
  const out: number[] = [];
  for (let i = first; i <= last; i += 1) out.push(i);
  return out;
}

/** "and a half" / "and one half" / "and a quarter" at token `k`: the fraction and its last token. */
function andAFraction(tokens: readonly Token[], k: number, limit: number): { add: number; last: number } | null {
  if (lowerAt(tokens, k, limit) !== 'and') return null;
  const article = lowerAt(tokens, k + 1, limit);
  const part = lowerAt(tokens, k + 2, limit);
  if ((article === 'a' || article === 'one') && (part === 'half' || part === 'quarter')) return { add: part === 'half' ? 0.5 : 0.25, last: k + 2 };
  return null;
}

/** The duration unit at token `k` ("years", "-month", "business days"): the unit and its last token. */
function durationUnitAt(tokens: readonly Token[], k: number, limit: number): { unit: DurationUnit; last: number } | null {
  let u = k;
  const t = tokens[u];
  if (t?.text === '-' && !t.spaced) u += 1;
  const word = lowerAt(tokens, u, limit);
  if (word !== undefined && UNIT_QUALIFIERS.has(word) && lowerAt(tokens, u + 1, limit)! in DURATION_UNITS) u += 1;
  const unitWord = lowerAt(tokens, u, limit);
  if (unitWord === undefined || !(unitWord in DURATION_UNITS)) return null;
  return { unit: DURATION_UNITS[unitWord]!, last: u };
}

interface ValueRead {
  kind: ExtractedValue['kind'];
  value: number;
  unit?: DurationUnit;
  currency?: string;
  first: number;
  last: number;
  numberTokens: number[];
}

/** The value starting at token `i`, or null. */
function readValueAt(tokens: readonly Token[], i: number, limit: number): ValueRead | null {
  const t = tokens[i]!;
  let j = i;
  let currency: string | undefined;
  if (t.kind === 'currency' || t.text in CURRENCY_SYMBOLS) {
    currency = CURRENCY_SYMBOLS[t.text] ?? 'USD';
    j = i + 1;
  } else if (t.text === 'US' && tokens[i + 1]?.text === '$' && !tokens[i + 1]!.spaced) {
    currency = 'USD';
    j = i + 2;
  } else if (CURRENCY_CODES.has(t.text) && tokens[i + 1]?.kind === 'number') {
    currency = t.text;
    j = i + 1;
  }
  const num = readNumber(tokens, j, limit, currency !== undefined);
  if (!num) return null;
  let value = num.value;
  let last = num.last;
  const fraction = andAFraction(tokens, last + 1, limit);
  if (fraction) {
    value += fraction.add;
    last = fraction.last;
  }
  const read: ValueRead = { kind: currency ? 'money' : 'number', value, first: i, last, numberTokens: num.numberTokens };
  if (currency) read.currency = currency;
  const k = last + 1;
  const next = k <= limit ? tokens[k] : undefined;
  if (!next) return read;
  if ((next.lower === 'x' || next.text === '×') && !currency) {
    read.last = k;
  } else if (next.text === '%') {
    Object.assign(read, { kind: 'percent', last: k });
  } else if (next.lower === 'percentage' && /^points?$/.test(lowerAt(tokens, k + 1, limit) ?? '')) {
    Object.assign(read, { kind: 'percent', last: k + 1 });
  } else if (next.lower === 'percent' || next.lower === 'pct' || (next.lower === 'pc' && !next.spaced) || next.lower === 'percentage') {
    Object.assign(read, { kind: 'percent', last: k });
  } else if (next.lower === 'per' && lowerAt(tokens, k + 1, limit) === 'cent') {
    Object.assign(read, { kind: 'percent', last: k + 1 });
  } else if (next.lower in CURRENCY_WORDS || CURRENCY_CODES.has(next.text)) {
    Object.assign(read, { kind: 'money', currency: CURRENCY_WORDS[next.lower] ?? next.text, last: k });
  } else if (!currency) {
    const unit = durationUnitAt(tokens, k, limit);
    if (unit) {
      read.kind = 'duration';
      read.unit = unit.unit;
      read.last = unit.last;
      const half = andAFraction(tokens, unit.last + 1, limit);
      if (half) {
        read.value += half.add;
        read.last = half.last;
      } else {
        addCompoundDuration(tokens, read, limit);
      }
    }
  }
  if (read.kind === 'number' && num.numberTokens.length === 1 && tokens[num.numberTokens[0]!]!.lower === 'a') return null;
  return read;
}

// The smaller units a duration can continue with ("2 years and 3 months", "1 week and 2 days");
// "10 months and 1,500 hours" is two values.
const COMPOUND_PARTS: Readonly<Record<DurationUnit, readonly DurationUnit[]>> = {
  years: ['months', 'weeks'],
  months: ['weeks', 'days'],
  weeks: ['days'],
  days: ['hours'],
  hours: [],
};

/** "1 year and 6 months" -> 18 months: a smaller unit after "and" joins the duration. */
function addCompoundDuration(tokens: readonly Token[], read: ValueRead, limit: number): void {
  if (lowerAt(tokens, read.last + 1, limit) !== 'and') return;
  const num = readNumber(tokens, read.last + 2, limit, false);
  if (!num) return;
  const unit = durationUnitAt(tokens, num.last + 1, limit);
  if (!unit || !COMPOUND_PARTS[read.unit!].includes(unit.unit)) return;
  read.value = clean((read.value * HOURS_PER[read.unit!]) / HOURS_PER[unit.unit] + num.value);
  read.unit = unit.unit;
  read.last = unit.last;
  read.numberTokens = [...read.numberTokens, ...num.numberTokens];
}

/**
 * Every value in an analysed text. Tokens marked in `blocked` (quoted text) are skipped; dates
 * come first and their tokens are not read again as numbers.
 */
export function extractValues(analysis: Analysis, dates: readonly FoundDate[], blocked: readonly boolean[]): ValueSpan[] {
  const { tokens, text } = analysis;
  const taken = [...blocked];
  const spans: ValueSpan[] = [];
  for (const d of dates) {
    const covered = tokens.filter((t) => t.start < d.end && t.end > d.start && !blocked[t.index]);
    if (covered.length === 0) continue;
    const first = covered[0]!.index;
    const last = covered[covered.length - 1]!.index;
    for (let i = first; i <= last; i += 1) taken[i] = true;
    spans.push({
      value: { kind: 'date', value: d.iso, raw: text.slice(d.start, d.end), start: d.start, end: d.end, clause: tokens[first]!.clause },
      first,
      last,
      numberTokens: covered.filter((t) => t.kind === 'number').map((t) => t.index),
    });
  }
  for (const clause of analysis.clauses) {
    let i = clause.first;
    while (i <= clause.last) {
      if (taken[i]) {
        i += 1;
        continue;
      }
      let limit = i;
      while (limit < clause.last && !taken[limit + 1]) limit += 1;
      const read = readValueAt(tokens, i, limit);
      if (!read) {
        i += 1;
        continue;
      }
      const start = tokens[read.first]!.start;
      const lastToken = tokens[read.last]!;
      // "$300k." — the sentence's full stop is not part of the value.
      const end = lastToken.end - (/[A-Za-z]\.$/.test(lastToken.text) ? 1 : 0);
      const value: ExtractedValue = { kind: read.kind, value: read.value, raw: text.slice(start, end), start, end, clause: clause.index };
      if (read.unit) value.unit = read.unit;
      if (read.currency) value.currency = read.currency;
      spans.push({ value, first: read.first, last: read.last, numberTokens: read.numberTokens });
      i = read.last + 1;
    }
  }
  return spans.sort((a, b) => a.value.start - b.value.start);
}
