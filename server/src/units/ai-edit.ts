/**
 * The built-in `local` provider of `POST /units/{id}/ai-edit`: a small instruction grammar applied
 * without a model (docs/AI-EDIT.md). Pure: it turns a unit's content and an instruction into a
 * PATCH-shaped update; the caller validates the edited unit, bumps its version and audits it.
 */
import { isDeepStrictEqual } from 'node:util';
import { invalid } from '../shared/errors.js';
import type { FrameworkDefinition, ProgramDefinition, UnitDefinition, VariableSchema } from './definition.js';
import type { UnitContent } from './unit-record.js';
import type { UnitPatch } from './units.service.js';

/** What an instruction did: the update to store and one human-readable line for the author. */
export interface AiEdit {
  patch: UnitPatch;
  summary: string;
}

/** The grammar, one line per form, as shown in errors and docs. */
export const LOCAL_EDIT_GRAMMAR: readonly string[] = Object.freeze([
  'rename to "<name>"',
  'set description to "<text>"',
  'set given to "<text>"',
  'set when to "<text>"',
  'set then to "<text>"',
  'set jurisdiction <code>',
  'clear jurisdiction',
  'set threshold to <number>',
  'set threshold <stepId> to <number>',
  'set weight <elementId> to <number>',
  'set expr <stepId> to <CEL expression>',
  'add alias <word or "phrase"> to <variable>',
  'remove alias <word or "phrase"> from <variable>',
]);

/** Limits of the contract (openapi.yaml), checked here so the author learns which one. */
const MAX_NAME = 200;
const MAX_TEXT = { description: 2000, given: 4000, when: 4000, then: 4000 } as const;
const MAX_EXPR = 2000;
const MAX_ALIAS = 100;
const MAX_ALIASES = 20;
const JURISDICTION = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_JURISDICTION = 32;

/**
 * Applies one instruction of the local grammar; throws invalid('instruction', …) (from
 * ../shared/errors.js) when it cannot. Several instructions joined by ";" or a newline are applied
 * in order, each to the unit as the previous ones left it; the patch holds the fields whose final
 * value differs from `unit`, which is never mutated.
 */
export function applyLocalEdit(unit: UnitContent, instruction: string): AiEdit {
  const parts = splitInstructions(instruction);
  if (parts.length === 0) throw invalid('instruction', `is empty; the local editor understands: ${LOCAL_EDIT_GRAMMAR.join('; ')}`);

  const work = structuredClone(unit);
  const touched = new Set<keyof UnitContent>();
  const summaries: string[] = [];
  for (const part of parts) {
    const step = applyOne(work, part);
    for (const field of step.fields) touched.add(field);
    summaries.push(step.summary);
  }

  const patch: UnitPatch = {};
  for (const field of touched) {
    if (!isDeepStrictEqual(work[field], unit[field])) copyField(patch, work, field);
  }
  if (Object.keys(patch).length === 0) {
    throw invalid('instruction', `changes nothing: the instructions cancel each other out (${summaries.join('; ')})`);
  }
  return { patch, summary: summaries.join('; ') };
}

const copyField = <K extends keyof UnitContent>(patch: UnitPatch, from: UnitContent, field: K): void => {
  patch[field] = from[field];
};

interface Applied {
  fields: (keyof UnitContent)[];
  summary: string;
}

/** One form: its pattern over a normalized instruction, and how to apply a match to the working copy. */
interface Form {
  pattern: RegExp;
  apply(unit: UnitContent, match: RegExpExecArray): Applied;
}

const QUOTED = String.raw`(["“”„][\s\S]*["“”]|['‘’][\s\S]*['‘’])`;
const NUMBER = String.raw`(-?(?:\d+(?:\.\d+)?|\.\d+))`;

const FORMS: readonly Form[] = [
  { pattern: new RegExp(String.raw`^rename\s+to\s+${QUOTED}$`, 'i'), apply: rename },
  { pattern: new RegExp(String.raw`^set\s+(description|given|when|then)\s+to\s+${QUOTED}$`, 'i'), apply: setText },
  { pattern: /^set\s+jurisdiction\s+(?:to\s+)?(\S+)$/i, apply: setJurisdiction },
  { pattern: /^clear\s+jurisdiction$/i, apply: clearJurisdiction },
  { pattern: new RegExp(String.raw`^set\s+threshold\s+to\s+${NUMBER}$`, 'i'), apply: setFrameworkThreshold },
  { pattern: new RegExp(String.raw`^set\s+threshold\s+(\S+)\s+to\s+${NUMBER}$`, 'i'), apply: setConditionThreshold },
  { pattern: new RegExp(String.raw`^set\s+weight\s+(\S+)\s+to\s+${NUMBER}$`, 'i'), apply: setWeight },
  { pattern: /^set\s+expr\s+(\S+)\s+to\s+(\S[\s\S]*)$/i, apply: setExpr },
  { pattern: new RegExp(String.raw`^add\s+alias\s+(${QUOTED.slice(1, -1)}|\S.*?)\s+to\s+(\S+)$`, 'i'), apply: addAlias },
  { pattern: new RegExp(String.raw`^remove\s+alias\s+(${QUOTED.slice(1, -1)}|\S.*?)\s+from\s+(\S+)$`, 'i'), apply: removeAlias },
];

function applyOne(unit: UnitContent, instruction: string): Applied {
  for (const form of FORMS) {
    const match = form.pattern.exec(instruction);
    if (match) return form.apply(unit, match);
  }
  throw invalid('instruction', `not understood: "${instruction}"; the local editor understands: ${LOCAL_EDIT_GRAMMAR.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Splitting and quoting

const DOUBLE_QUOTES = new Set(['"', '“', '”', '„']);
const SINGLE_QUOTES = new Set(["'", '‘', '’']);
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/**
 * Splits on ";" and newlines, except for a ";" inside quotes. A quote opens only after a non-word
 * character and closes only before one, so the apostrophe of "employee's" is not a quote; quotes
 * never span lines.
 */
function splitInstructions(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ';' || c === '\n' || c === '\r') {
      parts.push(text.slice(start, i));
      start = i + 1;
    } else if ((DOUBLE_QUOTES.has(c) || SINGLE_QUOTES.has(c)) && !isWordChar(text[i - 1])) {
      const close = closingQuote(text, i);
      if (close !== -1) i = close;
    }
    i += 1;
  }
  parts.push(text.slice(start));
  return parts.map(normalize).filter((p) => p.length > 0);
}

function closingQuote(text: string, open: number): number {
  const family = DOUBLE_QUOTES.has(text[open]!) ? DOUBLE_QUOTES : SINGLE_QUOTES;
  for (let j = open + 1; j < text.length && text[j] !== '\n' && text[j] !== '\r'; j++) {
    if (family.has(text[j]!) && !isWordChar(text[j + 1])) return j;
  }
  return -1;
}

/** Surrounding whitespace and one trailing period are not part of an instruction. */
function normalize(part: string): string {
  const trimmed = part.trim();
  return (trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed).trim();
}

/** The text between a matched pair of quotes, or the text itself when it is not quoted. */
function unquote(text: string): string {
  const first = text[0];
  const last = text[text.length - 1];
  if (text.length >= 2 && first !== undefined && last !== undefined) {
    const pair =
      (DOUBLE_QUOTES.has(first) && DOUBLE_QUOTES.has(last) && last !== '„') ||
      (SINGLE_QUOTES.has(first) && SINGLE_QUOTES.has(last));
    if (pair) return text.slice(1, -1).trim();
  }
  return text;
}

/** A text as shown in a summary: quoted, long ones shortened. */
function shown(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return `"${oneLine.length > 60 ? `${oneLine.slice(0, 57)}…` : oneLine}"`;
}

// ---------------------------------------------------------------------------------------------
// Names, texts and jurisdiction

function rename(unit: UnitContent, match: RegExpExecArray): Applied {
  const name = unquote(match[1]!);
  if (name.length === 0) throw invalid('instruction', 'the name must not be empty');
  if (name.length > MAX_NAME) throw invalid('instruction', `the name must be at most ${MAX_NAME} characters (got ${name.length})`);
  if (name === unit.name) throw invalid('instruction', `changes nothing: the unit is already named "${name}"`);
  const before = unit.name;
  unit.name = name;
  return { fields: ['name'], summary: `renamed "${before}" to "${name}"` };
}

function setText(unit: UnitContent, match: RegExpExecArray): Applied {
  const field = match[1]!.toLowerCase() as keyof typeof MAX_TEXT;
  const text = unquote(match[2]!);
  const value = text.length === 0 ? null : text;
  if (text.length > MAX_TEXT[field]) {
    throw invalid('instruction', `the ${field} text must be at most ${MAX_TEXT[field]} characters (got ${text.length})`);
  }
  if (value === unit[field]) {
    throw invalid('instruction', value === null ? `changes nothing: the unit has no ${field} text` : `changes nothing: ${field} is already ${shown(text)}`);
  }
  unit[field] = value;
  return { fields: [field], summary: value === null ? `cleared ${field}` : `set ${field} to ${shown(text)}` };
}

function setJurisdiction(unit: UnitContent, match: RegExpExecArray): Applied {
  const code = unquote(match[1]!);
  if (!JURISDICTION.test(code) || code.length > MAX_JURISDICTION) {
    throw invalid(
      'instruction',
      `"${code}" is not a jurisdiction code: up to ${MAX_JURISDICTION} letters, digits, "_", "." or "-", starting with a letter or digit (e.g. US-CA)`,
    );
  }
  const before = unit.jurisdiction;
  if (code === before) throw invalid('instruction', `changes nothing: the jurisdiction is already ${code}`);
  unit.jurisdiction = code;
  return { fields: ['jurisdiction'], summary: before === null ? `set jurisdiction to ${code}` : `set jurisdiction from ${before} to ${code}` };
}

function clearJurisdiction(unit: UnitContent): Applied {
  const before = unit.jurisdiction;
  if (before === null) throw invalid('instruction', 'changes nothing: the unit has no jurisdiction');
  unit.jurisdiction = null;
  return { fields: ['jurisdiction'], summary: `cleared jurisdiction (was ${before})` };
}

// ---------------------------------------------------------------------------------------------
// Numbers

interface NumberArg {
  value: number;
  /** As written to the unit: JS number formatting of the value (7.50 -> 7.5). */
  text: string;
}

function numberArg(written: string): NumberArg {
  const value = Number(written);
  const text = String(value === 0 ? 0 : value);
  // Beyond 1e21 JS (and so the stored JSON) switches to exponent notation, which is not what was asked.
  if (!Number.isFinite(value) || /e/i.test(text)) throw invalid('instruction', `${written} is too large a number`);
  return { value: value === 0 ? 0 : value, text };
}

const isFramework = (def: UnitDefinition | null): def is FrameworkDefinition =>
  def !== null && Array.isArray((def as Partial<FrameworkDefinition>).elements) && 'threshold' in def;

function frameworkOf(unit: UnitContent, instruction: string): FrameworkDefinition {
  if (unit.unitType !== 'framework') {
    const hint = unit.unitType === 'program' ? '; to change a step\'s condition use "set threshold <stepId> to <number>"' : '';
    throw invalid('instruction', `"${instruction}" applies to frameworks; this unit is a ${unit.unitType}${hint}`);
  }
  if (!isFramework(unit.definition)) {
    throw invalid('instruction', `"${instruction}" needs a framework definition; this framework has none`);
  }
  return unit.definition;
}

function programOf(unit: UnitContent, instruction: string): ProgramDefinition {
  if (unit.unitType !== 'program') throw invalid('instruction', `"${instruction}" applies to programs; this unit is a ${unit.unitType}`);
  const def = unit.definition;
  if (def === null || !Array.isArray((def as Partial<ProgramDefinition>).steps)) {
    throw invalid('instruction', `"${instruction}" needs a program definition; this program has none`);
  }
  return def as ProgramDefinition;
}

/** The item with this id; an id differing only in case is accepted when exactly one item has it. */
function byId<T extends { id: string }>(items: readonly T[], id: string): T | undefined {
  const exact = items.find((item) => item.id === id);
  if (exact) return exact;
  const folded = items.filter((item) => item.id.toLowerCase() === id.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

const listed = (ids: readonly string[]): string => (ids.length === 0 ? 'none' : ids.join(', '));

function setFrameworkThreshold(unit: UnitContent, match: RegExpExecArray): Applied {
  const def = frameworkOf(unit, 'set threshold to <number>');
  const to = numberArg(match[1]!);
  const before = def.threshold;
  if (before === to.value) throw invalid('instruction', `changes nothing: the threshold is already ${to.text}`);
  def.threshold = to.value;
  return { fields: ['definition'], summary: `set threshold from ${before} to ${to.text}` };
}

function setWeight(unit: UnitContent, match: RegExpExecArray): Applied {
  const def = frameworkOf(unit, 'set weight <elementId> to <number>');
  const element = byId(def.elements, match[1]!);
  if (!element) {
    throw invalid('instruction', `no element "${match[1]!}" in this framework (its elements: ${listed(def.elements.map((e) => e.id))})`);
  }
  const to = numberArg(match[2]!);
  const before = element.weight;
  if (before === to.value) throw invalid('instruction', `changes nothing: the weight of element ${element.id} is already ${to.text}`);
  element.weight = to.value;
  return { fields: ['definition'], summary: `set weight of element ${element.id} from ${before} to ${to.text}` };
}

function setExpr(unit: UnitContent, match: RegExpExecArray): Applied {
  const def = programOf(unit, 'set expr <stepId> to <CEL expression>');
  const step = byId(def.steps, match[1]!);
  if (!step) throw invalid('instruction', `no step "${match[1]!}" in this program (its steps: ${listed(def.steps.map((s) => s.id))})`);
  const expr = match[2]!.trim();
  if (expr.length > MAX_EXPR) throw invalid('instruction', `the expression must be at most ${MAX_EXPR} characters (got ${expr.length})`);
  const before = step.expr;
  if (expr === before) throw invalid('instruction', `changes nothing: the expr of step ${step.id} is already ${shown(expr)}`);
  step.expr = expr;
  return { fields: ['definition'], summary: `set expr of step ${step.id} from ${shown(before)} to ${shown(expr)}` };
}

/** Something in a definition that carries a CEL condition: a step's `if` or an element's `when`. */
interface Conditional {
  id: string;
  if?: string;
  when?: string;
}

/**
 * `set threshold <id> to <n>`: replaces the one numeric literal of a step's `if` (programs,
 * protocols) or an element's `when` (frameworks, patterns, arguments).
 */
function setConditionThreshold(unit: UnitContent, match: RegExpExecArray): Applied {
  const id = match[1]!;
  const to = numberArg(match[2]!);
  const def = unit.definition as { steps?: unknown; elements?: unknown } | null;
  const key = Array.isArray(def?.steps) ? 'if' : Array.isArray(def?.elements) ? 'when' : undefined;
  if (def === null || key === undefined) {
    throw invalid('instruction', `"set threshold <stepId> to <number>" needs a definition with steps or elements; this ${unit.unitType} has none`);
  }
  const noun = key === 'if' ? 'step' : 'element';
  const items = (key === 'if' ? def.steps : def.elements) as Conditional[];
  const item = byId(items, id);
  if (!item) throw invalid('instruction', `no ${noun} "${id}" in this ${unit.unitType} (its ${noun}s: ${listed(items.map((i) => i.id))})`);

  const condition = item[key];
  if (typeof condition !== 'string') {
    throw invalid('instruction', `${noun} ${item.id} has no condition (\`${key}\`), so it has no threshold to set`);
  }
  const literals = numericLiterals(condition);
  if (literals.length !== 1) {
    const found = literals.length === 0 ? 'no number' : `${literals.length} numbers (${literals.map((l) => l.text).join(', ')})`;
    throw invalid(
      'instruction',
      `the condition of ${noun} ${item.id} (\`${condition}\`) has ${found}; "set threshold" changes a condition with exactly one`,
    );
  }
  const literal = literals[0]!;
  if (literalValue(literal.text) === to.value) {
    throw invalid('instruction', `changes nothing: the threshold of ${noun} ${item.id} is already ${literal.text}`);
  }
  // `x - 5` set to -3 must not become `x --3`.
  const gap = to.text.startsWith('-') && condition[literal.start - 1] === '-' ? ' ' : '';
  item[key] = condition.slice(0, literal.start) + gap + to.text + condition.slice(literal.end);
  return { fields: ['definition'], summary: `set threshold of ${noun} ${item.id} from ${literal.text} to ${to.text}` };
}

interface NumericLiteral {
  start: number;
  end: number;
  /** As written, a unary minus included and inner spaces dropped: `-5`, `0.36`, `10u`. */
  text: string;
}

const CEL_NUMBER = /0[xX][0-9a-fA-F]+[uU]?|(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?[uU]?/y;
const RAW_OR_BYTES_PREFIX = /^(?:[rR]|[bB]|[rR][bB]|[bB][rR])$/;

/**
 * The numeric literals of a CEL expression, skipping string literals (quoted, triple-quoted, raw)
 * and identifiers (`tier2`). A minus counts as part of the literal when it is unary (`>= -5`), not
 * when it subtracts (`x - 5`).
 */
function numericLiterals(source: string): NumericLiteral[] {
  const found: NumericLiteral[] = [];
  let afterOperand = false;
  let unaryMinus = -1;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (c === '"' || c === "'") {
      i = skipString(source, i, false);
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < source.length && /[A-Za-z0-9_]/.test(source[j]!)) j += 1;
      const word = source.slice(i, j);
      const quote = source[j];
      i = (quote === '"' || quote === "'") && RAW_OR_BYTES_PREFIX.test(word) ? skipString(source, j, /r/i.test(word)) : j;
    } else if (/\d/.test(c) || (c === '.' && !afterOperand && /\d/.test(source[i + 1] ?? ''))) {
      CEL_NUMBER.lastIndex = i;
      const end = i + CEL_NUMBER.exec(source)![0].length;
      const start = unaryMinus >= 0 ? unaryMinus : i;
      found.push({ start, end, text: source.slice(start, end).replace(/\s+/g, '') });
      i = end;
    } else {
      unaryMinus = c === '-' && !afterOperand ? i : -1;
      afterOperand = c === ')' || c === ']' || c === '}';
      i += 1;
      continue;
    }
    afterOperand = true;
    unaryMinus = -1;
  }
  return found;
}

/** The index just past the string literal opening at `open`. */
function skipString(source: string, open: number, raw: boolean): number {
  const quote = source[open]!;
  const delimiter = source.startsWith(quote.repeat(3), open) ? quote.repeat(3) : quote;
  let j = open + delimiter.length;
  while (j < source.length) {
    if (!raw && source[j] === '\\') j += 2;
    else if (source.startsWith(delimiter, j)) return j + delimiter.length;
    else j += 1;
  }
  return source.length;
}

function literalValue(text: string): number {
  const negative = text.startsWith('-');
  const magnitude = Number(text.replace(/^-/, '').replace(/[uU]$/, ''));
  return negative ? -magnitude : magnitude;
}

// ---------------------------------------------------------------------------------------------
// Aliases

interface Variable {
  name: string;
  schema: VariableSchema;
}

/** An input, else an output, by exact name; a name differing only in case when unambiguous. */
function variableOf(unit: UnitContent, name: string): Variable {
  const inputs = unit.inputSchema.properties ?? {};
  const outputs = unit.outputSchema.properties ?? {};
  for (const properties of [inputs, outputs]) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (schema) return { name, schema };
  }
  const names = [...new Set([...Object.keys(inputs), ...Object.keys(outputs)])];
  const folded = names.filter((n) => n.toLowerCase() === name.toLowerCase());
  if (folded.length === 1) {
    const found = folded[0]!;
    return { name: found, schema: (Object.hasOwn(inputs, found) ? inputs[found] : outputs[found])! };
  }
  throw invalid('instruction', `unknown variable "${name}" (the unit's variables: ${listed(names)})`);
}

function aliasArg(written: string): string {
  const alias = unquote(written.trim()).replace(/\s+/g, ' ');
  if (alias.length === 0) throw invalid('instruction', 'an alias must not be empty');
  if (alias.length > MAX_ALIAS) throw invalid('instruction', `an alias must be at most ${MAX_ALIAS} characters (got ${alias.length})`);
  return alias;
}

function addAlias(unit: UnitContent, match: RegExpExecArray): Applied {
  const alias = aliasArg(match[1]!);
  const variable = variableOf(unit, match[2]!);
  const aliases = variable.schema['x-aliases'] ?? [];
  const existing = aliases.find((a) => a.toLowerCase() === alias.toLowerCase());
  if (existing !== undefined) throw invalid('instruction', `"${existing}" is already an alias of ${variable.name}`);
  if (aliases.length >= MAX_ALIASES) {
    throw invalid('instruction', `${variable.name} already has ${aliases.length} aliases, the most a variable may have`);
  }
  variable.schema['x-aliases'] = [...aliases, alias];
  return { fields: [fieldOf(unit, variable)], summary: `added alias "${alias}" to ${variable.name}` };
}

function removeAlias(unit: UnitContent, match: RegExpExecArray): Applied {
  const alias = aliasArg(match[1]!);
  const variable = variableOf(unit, match[2]!);
  const aliases = variable.schema['x-aliases'] ?? [];
  const index = aliases.findIndex((a) => a.toLowerCase() === alias.toLowerCase());
  if (index === -1) {
    const has = aliases.length === 0 ? 'it has none' : `its aliases: ${aliases.map((a) => `"${a}"`).join(', ')}`;
    throw invalid('instruction', `"${alias}" is not an alias of ${variable.name} (${has})`);
  }
  const removed = aliases[index]!;
  const rest = aliases.filter((_, i) => i !== index);
  if (rest.length === 0) delete variable.schema['x-aliases'];
  else variable.schema['x-aliases'] = rest;
  return { fields: [fieldOf(unit, variable)], summary: `removed alias "${removed}" from ${variable.name}` };
}

const fieldOf = (unit: UnitContent, variable: Variable): 'inputSchema' | 'outputSchema' =>
  unit.inputSchema.properties?.[variable.name] === variable.schema ? 'inputSchema' : 'outputSchema';
