/**
 * The model auditor: flags claims in model-written text (synthesized or neural segments with no
 * unit behind them) that nothing grounds: numbers, amounts, percentages and dates that neither the
 * question nor any unit's inputs, outputs or texts contain.
 */
import type { Segment } from './trust.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const NUMBER = /(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\w)|(?<![\w.])-?\d+(?:\.\d+)?(?!\w)/g;
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const WORD_DATE = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');

const numbersIn = (text: string): number[] => (text.match(NUMBER) ?? []).map((n) => Number(n.replace(/,/g, '')));

function datesIn(text: string): string[] {
  const dates: string[] = [];
  for (const m of text.matchAll(ISO_DATE)) dates.push(m[0]);
  for (const m of text.matchAll(WORD_DATE)) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    dates.push(`${m[3]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`);
  }
  return dates;
}

/** Every number and date in a JSON value or text, as grounding. */
function collect(value: unknown, numbers: Set<number>, dates: Set<string>): void {
  if (typeof value === 'number') numbers.add(value);
  else if (typeof value === 'string') {
    for (const n of numbersIn(value)) numbers.add(n);
    for (const d of datesIn(value)) dates.add(d);
  } else if (Array.isArray(value)) for (const v of value) collect(v, numbers, dates);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) collect(v, numbers, dates);
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

export function auditSegments(segments: readonly Segment[], grounding: { query: string | null; values: unknown[] }): string[] {
  const numbers = new Set<number>();
  const dates = new Set<string>();
  collect(grounding.query ?? '', numbers, dates);
  collect(grounding.values, numbers, dates);
  for (const s of segments) if (s.unitId !== null) collect(s.text, numbers, dates);
  const grounded = (n: number) => [...numbers].some((g) => close(g, n) || close(g * 100, n) || close(g, n * 100));
  const warnings: string[] = [];
  segments.forEach((segment, index) => {
    if (segment.unitId !== null || (segment.trustLevel !== 'synthesized' && segment.trustLevel !== 'neural')) return;
    for (const date of datesIn(segment.text)) {
      if (!dates.has(date)) warnings.push(`segment ${index} (${segment.trustLevel}): the date ${date} is not grounded in the question or any unit`);
    }
    const withoutDates = segment.text.replace(ISO_DATE, ' ').replace(WORD_DATE, ' ');
    for (const n of numbersIn(withoutDates)) {
      if (!grounded(n)) warnings.push(`segment ${index} (${segment.trustLevel}): the figure ${n} is not grounded in the question or any unit`);
    }
  });
  return warnings;
}
