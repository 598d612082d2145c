/**
 * Reading English cardinal numbers from tokens: digits ("12", "8,500", "1.25", "1/2") and words
 * ("twelve", "three hundred fifty thousand", "twenty-two", "a dozen").
 *
 * wink-nlp finds number spans but gives no values, and the small words-to-numbers packages on npm
 * are unmaintained and wrong on compound numbers ("three hundred fifty thousand" -> 50300), so this
 * short reader is ours. Fractions written in words ("and a half", "half a") are read by
 * extract-values.ts, which sees the surrounding units.
 */
import type { Token } from './text-analysis.js';

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** Words that take part in a number written in words. */
export function isNumberWord(lower: string): boolean {
  return lower in UNITS || lower in TEENS || lower in TENS || lower in SCALES || lower === 'hundred' || lower === 'dozen';
}

/** A scale word or suffix after digits ("1.2 million", "400k", "$1.2M"); null when there is none. */
export function scaleOf(token: Token, glued: boolean, money: boolean): number | null {
  // A sentence's full stop may stick to the suffix: "$300k."
  const text = token.text.replace(/\.$/, '');
  const lower = text.toLowerCase();
  if (lower in SCALES) return SCALES[lower]!;
  if (!glued) return lower === 'mn' ? 1e6 : lower === 'bn' ? 1e9 : null;
  if (lower === 'k') return 1e3;
  if (text === 'M' || text === 'MM' || (money && /^(m|mm|mn)$/i.test(text))) return 1e6;
  if (lower === 'bn' || (money && text === 'B')) return 1e9;
  return null;
}

/** The value of a single number word ("one", "twelve", "forty"), or null. */
export function numberWordValue(lower: string): number | null {
  return UNITS[lower] ?? TEENS[lower] ?? TENS[lower] ?? null;
}

/** The value of a digit token: "8,500", "1.25", ".5"; null for anything else. */
export function parseDigits(text: string): number | null {
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) return Number(text.replace(/,/g, ''));
  if (/^\d+(\.\d+)?$/.test(text) || /^\.\d+$/.test(text)) return Number(text);
  return null;
}

/**
 * A slash token: a simple fraction ("1/2" -> 0.5) or, for a reading like "95/60", its first
 * number (the systolic pressure); null when it is neither.
 */
export function parseSlash(text: string): { value: number; fraction: boolean } | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (b > 0 && b <= 16 && a < b) return { value: a / b, fraction: true };
  return { value: a, fraction: false };
}

const NOT_A_COUNT_BEFORE = new Set(['no', 'any', 'some', 'every', 'each', 'which', 'this', 'that', 'the', 'anyone', 'someone']);

/**
 * Reads a number written in words starting at token `i` ("twenty-two", "one hundred and twenty",
 * "a dozen", "three hundred fifty thousand"). Returns its value and last token, or null.
 */
export function readNumberWords(tokens: readonly Token[], i: number, last: number): { value: number; last: number } | null {
  let j = i;
  let total = 0;
  let current = 0;
  let end = -1;
  let prev: 'unit' | 'teen' | 'tens' | 'scale' | null = null;
  const first = tokens[i];
  if (!first) return null;
  if (first.lower === 'a' || first.lower === 'an') {
    const next = tokens[i + 1];
    if (!next || !(next.lower in SCALES || next.lower === 'hundred' || next.lower === 'dozen')) return null;
    current = 1;
    prev = 'unit';
    j = i + 1;
  }
  while (j <= last) {
    const t = tokens[j]!;
    const w = t.lower;
    if (w in UNITS) {
      if (prev === 'unit' || prev === 'teen') break;
      current += UNITS[w]!;
      prev = 'unit';
    } else if (w in TEENS) {
      if (prev === 'unit' || prev === 'teen' || prev === 'tens') break;
      current += TEENS[w]!;
      prev = 'teen';
    } else if (w in TENS) {
      if (prev === 'unit' || prev === 'teen' || prev === 'tens') break;
      current += TENS[w]!;
      prev = 'tens';
    } else if (w === 'hundred') {
      if (prev === null || prev === 'scale') break;
      current = current * 100;
      prev = 'scale';
    } else if (w in SCALES) {
      if (prev === null) break;
      total += current * SCALES[w]!;
      current = 0;
      prev = 'scale';
    } else if (w === 'dozen') {
      if (prev === null) break;
      current = current * 12;
      prev = 'scale';
    } else if (w === '-' && prev === 'tens' && !t.spaced) {
      const next = tokens[j + 1];
      if (!next || next.spaced || !(next.lower in UNITS)) break;
      j += 1;
      continue;
    } else if (w === 'and' && prev === 'scale') {
      const next = tokens[j + 1];
      if (!next || !(next.lower in UNITS || next.lower in TEENS || next.lower in TENS)) break;
      j += 1;
      continue;
    } else break;
    end = j;
    j += 1;
  }
  if (end < 0) return null;
  // "one" as a pronoun ("no one", "the one", "one of them") is not a count.
  if (end === i && first.lower === 'one') {
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if ((before && NOT_A_COUNT_BEFORE.has(before.lower)) || (after && (after.lower === 'of' || after.lower === 'another'))) return null;
  }
  return { value: total + current, last: end };
}
