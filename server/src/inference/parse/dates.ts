/**
 * Calendar dates in a query, read by chrono-node with only its date parsers: ISO ("2026-03-03"),
 * month names ("March 3, 2026", "3 March 2026", "3rd of March 2026", "Mar 3 2026") and slashes
 * ("03/04/2026", read month first as in the US). Times, weekdays and relative expressions
 * ("yesterday", "in 3 days") are left out, and a date counts only when its year, month and day are
 * all written, so the result never depends on today's date.
 */
import { Chrono, en } from 'chrono-node';

// chrono-node's English parsers and refiners, by class name (the version is pinned; dates.test.ts
// fails if a rename drops one).
const DATE_PARSERS = new Set([
  'ISOFormatParser',
  'ENYearMonthDayParser',
  'SlashDateFormatParser',
  'ENMonthNameLittleEndianParser',
  'ENMonthNameMiddleEndianParser',
]);
const DATE_REFINERS = new Set(['OverlapRemovalRefiner', 'UnlikelyFormatFilter']);

function dateOnlyChrono(): Chrono {
  const config = en.configuration.createConfiguration(true, false);
  const parsers = config.parsers.filter((p) => DATE_PARSERS.has(p.constructor.name));
  const refiners = config.refiners.filter((r) => DATE_REFINERS.has(r.constructor.name));
  if (parsers.length !== DATE_PARSERS.size) throw new Error('chrono-node no longer has the date parsers the query parser uses');
  return new Chrono({ parsers, refiners });
}

const chrono = dateOnlyChrono();
// Only fully written dates are kept, so the reference date never shows in a result.
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

export interface FoundDate {
  iso: string;
  start: number;
  end: number;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The fully written calendar dates in a text, in order. */
export function findDates(text: string): FoundDate[] {
  if (!/\d/.test(text)) return [];
  const found: FoundDate[] = [];
  for (const result of chrono.parse(text, REFERENCE)) {
    const s = result.start;
    if (!s.isCertain('year') || !s.isCertain('month') || !s.isCertain('day')) continue;
    const year = s.get('year');
    const month = s.get('month');
    const day = s.get('day');
    if (year === null || month === null || day === null) continue;
    // chrono keeps a leading "on" ("on 1 Feb 2020"); the date itself starts after it.
    const lead = /^(?:(?:on|the)\s+)*/i.exec(result.text)?.[0].length ?? 0;
    found.push({ iso: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`, start: result.index + lead, end: result.index + result.text.length });
  }
  return found;
}
