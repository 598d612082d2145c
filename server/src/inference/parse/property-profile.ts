/**
 * What the binder knows about each input property of a schema: the words that name it (its cues),
 * the unit it is expressed in, how it takes percentages, and its enum values with their synonyms.
 * Profiles are built once per schema and cached.
 */
import type { IoSchema, VariableSchema } from '../../units/definition.js';
import type { DurationUnit } from './types.js';
import { analyze, type Token } from './text-analysis.js';

export type CueSource = 'name' | 'title' | 'alias' | 'unit' | 'description';

/** A word of a phrase, by both comparison forms (stem of the lemma, stem as written). */
export interface CueWord {
  norm: string;
  surface: string;
}

/** A phrase naming a property; `words` in order. */
export interface Cue {
  words: CueWord[];
  source: CueSource;
  weight: number;
  /** Matched as a whole for a boolean (name, title, alias). */
  whole: boolean;
}

export interface EnumOption {
  value: string;
  /** The value and its synonyms, as word sequences. */
  phrases: CueWord[][];
  /** A generic word ("other", "none", "yes") that binds only next to the property's own words. */
  weak: boolean;
}

export type PropertyType = 'number' | 'integer' | 'string' | 'boolean' | 'other';

export interface PropertyProfile {
  name: string;
  order: number;
  schema: VariableSchema;
  type: PropertyType;
  cues: Cue[];
  timeUnit: DurationUnit | null;
  percentStyle: 'fraction' | 'percent';
  /** Name, title or description speak of percent, fraction or ratio. */
  percentish: boolean;
  money: boolean;
  date: boolean;
  enumOptions: EnumOption[] | null;
  /** A free-text input that takes the query's jurisdiction, and in which form. */
  region: 'state' | 'country' | 'code' | null;
}

export interface SchemaProfile {
  profiles: PropertyProfile[];
  /** Inverse frequency of each cue word (by norm) among the properties that take numbers. */
  idf: Map<string, number>;
  /** Inverse frequency of each cue word among the boolean properties' whole phrases. */
  booleanIdf: Map<string, number>;
}

// Words dropped from names, titles and aliases: they carry no meaning of their own here.
const CUE_STOP = new Set([
  'a', 'an', 'the', 'of', 'in', 'on', 'to', 'for', 'by', 'at', 'with', 'and', 'or', 'as', 'from', 'per', 'is', 'are', 'was',
  'were', 'be', 'been', 'has', 'have', 'had', 'its', 'it', 'this', 'that', 'their', 'his', 'her', 'any', 'all', 'than', 'into',
  'within', 'e.g.', 'i.e.', 'eg', 'ie', "'s", 'when', 'where', 'which', 'who', 'how', 'what', 'there',
]);
// Negators kept in a cue when it has them ("no coercion").
const NEGATION_WORDS = new Set(['no', 'not', 'never', 'without', 'none', 'nothing']);

const WEIGHTS: Record<CueSource, number> = { name: 1, title: 1, alias: 1, unit: 0.5, description: 0.35 };

/** Synonyms every schema gets for these enum values (x-enum-aliases adds more). */
const BUILT_IN_ENUM_SYNONYMS: Readonly<Record<string, string[]>> = {
  female: ['woman', 'women', 'girl', 'lady'],
  male: ['man', 'men', 'boy', 'gentleman'],
};
const WEAK_ENUM_VALUES = new Set(['other', 'none', 'yes', 'no', 'true', 'false', 'unknown', 'n/a', 'na', 'any', 'all']);

const PLURAL_TIME_WORDS: Readonly<Record<string, DurationUnit>> = {
  years: 'years', yrs: 'years', months: 'months', mos: 'months', weeks: 'weeks', workweeks: 'weeks', days: 'days', hours: 'hours', hrs: 'hours',
};
const MONEY_WORDS = new Set([
  'amount', 'price', 'cost', 'income', 'salary', 'pay', 'payment', 'payments', 'earnings', 'fee', 'fees', 'value', 'balance',
  'deductible', 'premium', 'wage', 'wages', 'paid', 'debt', 'loss', 'limit', 'interest', 'gifts', 'withholding', 'agi',
]);

/** Splits an identifier into words: `years_of_service`, `yearsOfService`, `article9_condition`. */
export function identifierWords(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim();
}

function contentTokens(text: string, prose: boolean): Token[] {
  const tokens = analyze(text).tokens.filter((t) => t.kind === 'word' || t.kind === 'number');
  const kept = tokens.filter((t) => {
    if (!prose && NEGATION_WORDS.has(t.lower)) return true;
    if (CUE_STOP.has(t.lower) || CUE_STOP.has(t.lemma)) return false;
    if (prose && t.stop) return false;
    return t.kind === 'number' || t.text.length > 1;
  });
  return kept;
}

const cueWord = (t: Token): CueWord => ({ norm: t.norm, surface: t.surface });
const phraseKey = (words: readonly CueWord[]) => words.map((w) => w.norm).join(' ');

function cueOf(text: string, source: CueSource, prose = false): Cue | null {
  const words = contentTokens(text, prose).map(cueWord);
  if (words.length === 0) return null;
  return { words, source, weight: WEIGHTS[source], whole: source === 'name' || source === 'alias' || (source === 'title' && words.length <= 6) };
}

/** The first plural time word not qualified by a number ("hours_last_12_months" -> hours). */
function timeUnitIn(text: string): DurationUnit | null {
  const words = text.toLowerCase().split(/[^a-z0-9.]+/).filter(Boolean);
  for (let i = 0; i < words.length; i += 1) {
    const unit = PLURAL_TIME_WORDS[words[i]!];
    if (!unit) continue;
    const prev = words[i - 1];
    if (prev !== undefined && /^\d/.test(prev)) continue;
    return unit;
  }
  return null;
}

function typeOf(schema: VariableSchema): PropertyType {
  const t = schema.type;
  if (t === 'number' || t === 'integer' || t === 'string' || t === 'boolean') return t;
  if (t === undefined && Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return 'string';
  return 'other';
}

function enumOptionsOf(schema: VariableSchema): EnumOption[] | null {
  if (!Array.isArray(schema.enum) || schema.enum.length === 0) return null;
  const aliases = schema['x-enum-aliases'];
  const aliasMap = aliases && typeof aliases === 'object' && !Array.isArray(aliases) ? (aliases as Record<string, unknown>) : {};
  const options: EnumOption[] = [];
  for (const value of schema.enum) {
    if (typeof value !== 'string') continue;
    const phrases: CueWord[][] = [];
    const add = (phrase: string) => {
      const words = analyze(identifierWords(phrase)).tokens.filter((t) => t.kind === 'word' || t.kind === 'number').map(cueWord);
      if (words.length > 0 && !phrases.some((p) => phraseKey(p) === phraseKey(words))) phrases.push(words);
    };
    add(value);
    const extra = aliasMap[value];
    for (const a of Array.isArray(extra) ? extra : [extra]) if (typeof a === 'string') add(a);
    for (const a of BUILT_IN_ENUM_SYNONYMS[value.toLowerCase()] ?? []) add(a);
    options.push({ value, phrases, weak: WEAK_ENUM_VALUES.has(value.toLowerCase()) || value.length <= 1 });
  }
  return options.length > 0 ? options : null;
}

function profileOf(name: string, order: number, schema: VariableSchema): PropertyProfile {
  const title = typeof schema.title === 'string' ? schema.title : '';
  const description = typeof schema.description === 'string' ? schema.description : '';
  const aliases = Array.isArray(schema['x-aliases']) ? schema['x-aliases'].filter((a): a is string => typeof a === 'string') : [];
  const nameText = identifierWords(name);
  const titleMain = title.replace(/\([^)]*\)/g, ' ');
  const titleUnits = [...title.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]!);

  const cues: Cue[] = [];
  const push = (cue: Cue | null) => {
    if (cue && !cues.some((c) => phraseKey(c.words) === phraseKey(cue.words) && c.weight >= cue.weight)) cues.push(cue);
  };
  push(cueOf(nameText, 'name'));
  push(cueOf(titleMain, 'title'));
  for (const a of aliases) push(cueOf(a, 'alias'));
  for (const u of titleUnits) push(cueOf(u, 'unit'));
  if (description) push(cueOf(description, 'description', true));

  const type = typeOf(schema);
  const everything = `${nameText} ${title} ${description}`.toLowerCase();
  const named = `${nameText} ${title}`.toLowerCase();

  // A description names the unit only when it says so ("in months", "number of days"): it may
  // mention hours or years for another reason ("contracted hours as a fraction of full time").
  const described = /\b(?:in|number of|count of|measured in|expressed in)\s+(years|months|weeks|days|hours)\b|\((years|months|weeks|days|hours)\)/i.exec(description);
  let timeUnit = timeUnitIn(nameText) ?? timeUnitIn(title) ?? (described ? timeUnitIn(described[1] ?? described[2]!) : null);
  // An age is counted in years.
  if (!timeUnit && /^(?:\w+ )?age$/.test(nameText.toLowerCase()) && (type === 'integer' || type === 'number')) timeUnit = 'years';

  const fraction = /\bfraction\b|\bas a decimal\b/.test(everything);
  const percent = /%|\bpercent|\bpercentage\b|\bpct\b/.test(everything);
  const ratio = /\bratio\b|\bproportion\b|\bshare of\b/.test(everything) || schema.maximum === 1;
  const percentStyle = fraction ? 'fraction' : percent ? 'percent' : ratio ? 'fraction' : 'percent';

  const nameWords = named.split(/[^a-z]+/);
  const money = /\b(?:usd|eur|gbp|dollars?|euros?)\b|[$€£]/.test(`${title} ${description}`.toLowerCase()) || nameWords.some((w) => MONEY_WORDS.has(w));
  const date =
    schema.format === 'date' || schema.format === 'date-time' || (type === 'string' && nameWords.some((w) => w === 'date' || w === 'dob'));

  let region: PropertyProfile['region'] = null;
  if (type === 'string' && !schema.enum && nameWords.some((w) => w === 'state' || w === 'country' || w === 'jurisdiction' || w === 'region')) {
    if (/\busps\b|\bstate code\b|\btwo-letter\b/.test(everything) || nameWords.includes('state')) region = 'state';
    else if (nameWords.includes('country')) region = 'country';
    else region = 'code';
  }

  return {
    name,
    order,
    schema,
    type,
    cues,
    timeUnit: type === 'number' || type === 'integer' ? timeUnit : null,
    percentStyle,
    percentish: fraction || percent || ratio,
    money,
    date,
    enumOptions: type === 'string' ? enumOptionsOf(schema) : null,
    region,
  };
}

const byObject = new WeakMap<IoSchema, SchemaProfile>();
const byText = new Map<string, SchemaProfile>();
const TEXT_CACHE_LIMIT = 500;

/** The profiles of a schema's properties, cached by object and by content. */
export function schemaProfile(schema: IoSchema): SchemaProfile {
  const cached = byObject.get(schema);
  if (cached) return cached;
  const key = JSON.stringify(schema.properties ?? {});
  let profile = byText.get(key);
  if (!profile) {
    const profiles = Object.entries(schema.properties ?? {}).map(([name, s], i) => profileOf(name, i, s ?? {}));
    const inverseFrequency = (group: PropertyProfile[], cues: (p: PropertyProfile) => Cue[]) => {
      const counts = new Map<string, number>();
      for (const p of group) for (const w of new Set(cues(p).flatMap((c) => c.words.map((x) => x.norm)))) counts.set(w, (counts.get(w) ?? 0) + 1);
      return new Map([...counts].map(([w, n]) => [w, 1 / n]));
    };
    const idf = inverseFrequency(
      profiles.filter((p) => p.type === 'number' || p.type === 'integer' || p.date),
      (p) => p.cues,
    );
    const booleanIdf = inverseFrequency(
      profiles.filter((p) => p.type === 'boolean'),
      (p) => p.cues.filter((c) => c.whole),
    );
    profile = { profiles, idf, booleanIdf };
    if (byText.size >= TEXT_CACHE_LIMIT) byText.clear();
    byText.set(key, profile);
  }
  byObject.set(schema, profile);
  return profile;
}
