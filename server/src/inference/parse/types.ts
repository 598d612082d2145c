/** The parse stage's results: a parsed query and the inputs bound from it for one unit. */

/** A part of the query: a sentence, or a question or statement within one. */
export interface QueryClause {
  index: number;
  text: string;
  start: number;
  end: number;
}

export type ValueKind = 'number' | 'money' | 'percent' | 'date' | 'duration' | 'boolean' | 'enum' | 'text';

export type DurationUnit = 'years' | 'months' | 'weeks' | 'days' | 'hours';

/** A number, amount of money, percentage, date or duration written in the query. */
export interface ExtractedValue {
  kind: 'number' | 'money' | 'percent' | 'date' | 'duration';
  /** A number; for dates an ISO date string (YYYY-MM-DD). Percentages as written (45% -> 45). */
  value: number | string;
  /** Durations: the unit written. */
  unit?: DurationUnit;
  /** Money: ISO 4217 code; `$` reads as USD. */
  currency?: string;
  /** The text the value was read from. */
  raw: string;
  start: number;
  end: number;
  /** Index of the clause it occurs in. */
  clause: number;
}

export interface ParsedQuery {
  text: string;
  clauses: QueryClause[];
  values: ExtractedValue[];
  /** A region code: 'US-CA' for "in California", 'GB' for "in the UK"; null when none is named. */
  jurisdiction: string | null;
  /** Content words, lemmatised and lower-case, stop words removed, deduplicated, in order. */
  keywords: string[];
}

/** One input bound from the query. */
export interface Binding {
  name: string;
  value: unknown;
  kind: ValueKind;
  /** The clause the value came from; null when it came from the whole query (a jurisdiction). */
  clause: number | null;
  raw: string;
}

export interface BindResult {
  /** Bound input values, typed per the schema (integer, number, string, boolean, enum value). */
  inputs: Record<string, unknown>;
  bindings: Binding[];
  /** Required inputs left unbound. */
  missing: string[];
}
