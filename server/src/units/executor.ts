import { invalid } from '../shared/errors.js';
import { describeCelError, toJson } from './cel.js';
import type { ExecutableUnit, JsonValue, UnitExample, UnitExampleResults } from './definition.js';
import { renderTemplate as render } from './template.js';
import { analyzeUnit, type CompiledExpr, type CompiledUnit, type InputVariable } from './validate-definition.js';

export type { CompiledUnit } from './validate-definition.js';

export type TraceKind = 'step' | 'exception' | 'element' | 'condition' | 'conclusion' | 'premise' | 'rebuttal' | 'text' | 'gate';

/** What one step or element did: whether it held (ran, fired, was answered) and its value. */
export interface TraceEntry {
  id: string;
  kind: TraceKind;
  held: boolean;
  value?: JsonValue;
  note?: string;
}

export interface FrameworkOutcome {
  score: number;
  threshold: number;
  passed: boolean;
  outcome: 'pass' | 'fail';
}
export interface PatternOutcome {
  fires: boolean;
}
export interface ArgumentOutcome {
  stands: boolean;
  /** The id of the first rebuttal that held, if any. */
  defeatedBy: string | null;
}
/** What a framework, pattern or argument concluded; the same names are its outcome variables. */
export type Outcome = FrameworkOutcome | PatternOutcome | ArgumentOutcome;

export interface PendingQuestion {
  name: string;
  question: string;
  options: string[];
}

export interface CompletedRun {
  status: 'completed';
  /** The declared outputs that got a value. */
  outputs: Record<string, JsonValue>;
  /** Rendered texts in order: the definition's texts, then `then`. */
  texts: string[];
  trace: TraceEntry[];
  outcome?: Outcome;
}
export interface PausedRun {
  status: 'paused';
  pendingQuestions: PendingQuestion[];
  /** Texts rendered before the gate. */
  texts: string[];
  trace: TraceEntry[];
  /** Index in `definition.steps` of the gate that paused the run. */
  position: number;
}
export interface MissingInputsRun {
  status: 'missing_inputs';
  /** Required inputs not given, or optional inputs the path taken needed. */
  missing: string[];
  trace: TraceEntry[];
}
export type ExecutionResult = CompletedRun | PausedRun | MissingInputsRun;

/** A CEL expression failed at run time (division by zero, a variable no step set, …). */
export class ExecutionError extends Error {
  constructor(
    readonly stepId: string,
    /** Dotted path of the expression, e.g. `definition.steps[1].expr`. */
    readonly field: string,
    /** The CEL library's error code, e.g. `division_by_zero`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ExecutionError';
  }
}

const CACHE_LIMIT = 1000;
const cache = new Map<string, CompiledUnit>();

/**
 * Compiles a unit once per content version: a unit with `id` and `version` is kept in a small
 * LRU map, so requests reuse its parsed CEL. A unit without them (a draft) is not cached.
 * Throws a VALIDATION_ERROR AppError if the unit is invalid (validateUnitDefinition says why).
 */
export function compileUnit(unit: ExecutableUnit): CompiledUnit {
  const key = unit.id !== undefined && unit.version !== undefined ? `${unit.id}@${unit.version}` : undefined;
  const hit = key === undefined ? undefined : cache.get(key);
  if (key !== undefined && hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const result = analyzeUnit(unit);
  if ('issue' in result) throw invalid(result.issue.field, result.issue.issue);
  if (key !== undefined) {
    cache.set(key, result.unit);
    const oldest = cache.keys().next().value;
    if (cache.size > CACHE_LIMIT && oldest !== undefined) cache.delete(oldest);
  }
  return result.unit;
}

/** Empties the compile cache (tests and benchmarks). */
export function clearCompileCache(): void {
  cache.clear();
}

type Vars = Record<string, unknown>;

/** Thrown inside a run when the path taken needs an optional input that was not given. */
class Missing {
  constructor(readonly names: string[]) {}
}

/**
 * Runs a compiled unit on bound inputs (JSON values, by input name) and, for a protocol, the
 * answers to its gates so far (by gate name). Invalid inputs or answers throw a VALIDATION_ERROR
 * AppError (`inputs.<name>`, `additionalInputs.<name>`); a CEL failure throws ExecutionError.
 */
export function execute(unit: CompiledUnit, inputs: Record<string, unknown>, answers: Record<string, unknown> = {}): ExecutionResult {
  const vars: Vars = Object.create(null) as Vars;
  const missing = bindInputs(unit.inputs, inputs, vars);
  if (missing.length > 0) return { status: 'missing_inputs', missing, trace: [] };
  checkAnswers(unit, answers);
  const trace: TraceEntry[] = [];
  try {
    return run(unit, vars, answers, trace);
  } catch (err) {
    if (err instanceof Missing) return { status: 'missing_inputs', missing: err.names, trace };
    throw err;
  }
}

function bindInputs(declared: readonly InputVariable[], given: Record<string, unknown>, vars: Vars): string[] {
  const missing: string[] = [];
  for (const input of declared) {
    const value = given[input.name];
    if (value === undefined || value === null) {
      if (input.required) missing.push(input.name);
      continue;
    }
    if (input.enum && !input.enum.includes(value)) {
      throw invalid(`inputs.${input.name}`, `must be one of ${input.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    }
    vars[input.name] = toCelValue(input, value);
  }
  return missing;
}

/** JSON to CEL by the declared type: `integer` -> int (bigint), `number` -> double (number). */
function toCelValue(input: InputVariable, value: unknown): unknown {
  const field = `inputs.${input.name}`;
  switch (input.type) {
    case 'integer':
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      throw invalid(field, 'must be an integer');
    case 'number':
      if (typeof value === 'bigint') return Number(value);
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw invalid(field, 'must be a number');
    case 'string':
    case 'boolean':
      if (typeof value === input.type) return value;
      throw invalid(field, `must be a ${input.type}`);
    case 'array':
      if (Array.isArray(value)) return value;
      throw invalid(field, 'must be an array');
    case 'object':
      if (typeof value === 'object' && !Array.isArray(value)) return value;
      throw invalid(field, 'must be an object');
    default:
      return value;
  }
}

function checkAnswers(unit: CompiledUnit, answers: Record<string, unknown>): void {
  for (const [name, options] of unit.gates) {
    const answer = answers[name];
    if (answer === undefined || answer === null) continue;
    if (typeof answer !== 'string' || !options.includes(answer)) {
      throw invalid(`additionalInputs.${name}`, `must be one of: ${options.join(', ')}`);
    }
  }
}

function evaluate(expr: CompiledExpr, vars: Vars): unknown {
  if (expr.optionalInputs.length > 0) {
    const absent = expr.optionalInputs.filter((name) => vars[name] === undefined);
    if (absent.length > 0) throw new Missing(absent);
  }
  try {
    return expr.run(vars);
  } catch (err) {
    const { code, message } = describeCelError(err);
    throw new ExecutionError(expr.stepId, expr.field, code, `step "${expr.stepId}" (${expr.field}): ${message}`);
  }
}

function holds(expr: CompiledExpr | undefined, vars: Vars): boolean {
  if (!expr) return true;
  const value = evaluate(expr, vars);
  if (typeof value !== 'boolean') {
    throw new ExecutionError(expr.stepId, expr.field, 'not_a_condition', `step "${expr.stepId}" (${expr.field}): yields ${typeof value}, not a bool`);
  }
  return value;
}

/** A step's value in the type of its variable: the only implicit int/double conversion. */
function assign(target: string, value: unknown, stepId: string, field: string): unknown {
  if (target === 'double' && typeof value === 'bigint') return Number(value);
  if (target === 'int' && typeof value === 'number') {
    if (Number.isInteger(value)) return BigInt(value);
    throw new ExecutionError(stepId, field, 'not_an_integer', `step "${stepId}" (${field}): yields ${value}, not an integer`);
  }
  return value;
}

/** A finished run; `then` is rendered only when the unit concluded (a pattern fired, an argument stood). */
function completed(
  unit: CompiledUnit, vars: Vars, texts: string[], trace: TraceEntry[], outcome?: Outcome, concluded = true,
): CompletedRun {
  const outputs: Record<string, JsonValue> = {};
  for (const name of unit.outputs) if (vars[name] !== undefined && vars[name] !== null) outputs[name] = toJson(vars[name]);
  if (unit.then && concluded) texts.push(render(unit.then, vars));
  return outcome ? { status: 'completed', outputs, texts, trace, outcome } : { status: 'completed', outputs, texts, trace };
}

function run(unit: CompiledUnit, vars: Vars, answers: Record<string, unknown>, trace: TraceEntry[]): ExecutionResult {
  const body = unit.body;
  switch (body.kind) {
    case 'declarative':
      return completed(unit, vars, [], trace);

    case 'program': {
      const setBy = new Map<string, string>();
      for (const step of body.steps) {
        const kind = step.exception ? 'exception' : 'step';
        if (!holds(step.if, vars)) {
          trace.push({ id: step.id, kind, held: false });
          continue;
        }
        const value = assign(step.target, evaluate(step.expr, vars), step.id, step.expr.field);
        vars[step.set] = value;
        const previous = setBy.get(step.set);
        setBy.set(step.set, step.id);
        trace.push({ id: step.id, kind, held: true, value: toJson(value), note: previous ? `${step.set}, overriding "${previous}"` : step.set });
      }
      return completed(unit, vars, [], trace);
    }

    case 'framework': {
      let score = 0;
      for (const el of body.elements) {
        const held = holds(el.when, vars);
        if (held) score += el.weight;
        trace.push({ id: el.id, kind: 'element', held, value: held ? el.weight : 0, note: el.label });
      }
      // Weights are often decimals: 0.7 + 0.1 must reach a threshold of 0.8.
      score = Math.round(score * 1e9) / 1e9;
      const passed = score >= body.threshold - 1e-9;
      const outcome: FrameworkOutcome = { score, threshold: body.threshold, passed, outcome: passed ? 'pass' : 'fail' };
      Object.assign(vars, outcome);
      return completed(unit, vars, [render(passed ? body.pass : body.fail, vars)], trace, outcome);
    }

    case 'pattern': {
      let fires = true;
      for (const c of body.conditions) {
        const held = holds(c.when, vars);
        fires &&= held;
        trace.push({ id: c.id, kind: 'condition', held });
      }
      vars.fires = fires;
      const texts = fires ? body.conclusions.map((c) => render(c.text, vars)) : [];
      for (const c of body.conclusions) trace.push({ id: c.id, kind: 'conclusion', held: fires });
      return completed(unit, vars, texts, trace, { fires }, fires);
    }

    case 'argument': {
      let supported = true;
      for (const p of body.premises) {
        const held = holds(p.when, vars);
        supported &&= held;
        trace.push({ id: p.id, kind: 'premise', held, note: render(p.text, vars) });
      }
      const defeating: string[] = [];
      const texts: string[] = [];
      for (const r of body.rebuttals) {
        const held = holds(r.when, vars);
        if (held) {
          defeating.push(r.id);
          texts.push(render(r.text, vars));
        }
        trace.push({ id: r.id, kind: 'rebuttal', held, note: render(r.text, vars) });
      }
      const stands = supported && defeating.length === 0;
      const outcome: ArgumentOutcome = { stands, defeatedBy: defeating[0] ?? null };
      Object.assign(vars, outcome);
      const note = stands ? undefined : defeating.length > 0 ? `defeated by "${defeating[0]}"` : 'a premise does not hold';
      trace.push({ id: body.conclusion.id, kind: 'conclusion', held: stands, ...(note ? { note } : {}) });
      return completed(unit, vars, stands ? [render(body.conclusion.text, vars)] : texts, trace, outcome, stands);
    }

    case 'protocol': {
      const texts: string[] = [];
      for (const [position, step] of body.steps.entries()) {
        const kind = 'gate' in step ? 'gate' : 'text';
        if (!holds(step.if, vars)) {
          // A skipped gate still binds its name, to null, so later conditions can test it.
          if ('gate' in step) vars[step.gate.name] = null;
          trace.push({ id: step.id, kind, held: false });
          continue;
        }
        if (!('gate' in step)) {
          texts.push(render(step.text, vars));
          trace.push({ id: step.id, kind, held: true });
          continue;
        }
        const answer = answers[step.gate.name];
        if (answer === undefined || answer === null) {
          const { name, question, options } = step.gate;
          const pendingQuestions = [{ name, question: render(question, vars), options: [...options] }];
          return { status: 'paused', pendingQuestions, texts, trace, position };
        }
        vars[step.gate.name] = answer;
        trace.push({ id: step.id, kind, held: true, value: toJson(answer) });
      }
      return completed(unit, vars, texts, trace);
    }
  }
}

/**
 * Runs a unit's examples. An example's `inputs` holds input values and, for a protocol, gate
 * answers by gate name. Its `expected` is compared key by key (only the keys given) against what
 * the run observed: the declared outputs, the outcome variables (framework `score`,
 * `threshold`, `passed`, `outcome`; pattern `fires`; argument `stands`, `defeatedBy`), `texts`
 * (the rendered texts) and `status` (`completed`, `paused`, `missing_inputs`). Values compare by
 * deep equality, numbers within 1e-9 (relative).
 */
export function runExamples(unit: CompiledUnit, examples: readonly UnitExample[]): UnitExampleResults {
  const failures: { name: string; message: string }[] = [];
  for (const example of examples) {
    const message = checkExample(unit, example);
    if (message !== null) failures.push({ name: example.name, message });
  }
  return { passing: examples.length - failures.length, failing: failures.length, failures };
}

function checkExample(unit: CompiledUnit, example: UnitExample): string | null {
  const inputs: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(example.inputs)) (unit.gates.has(key) ? answers : inputs)[key] = value;
  let result: ExecutionResult;
  try {
    result = execute(unit, inputs, answers);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const observed: Record<string, unknown> =
    result.status === 'completed'
      ? { ...result.outcome, ...result.outputs, texts: result.texts, status: result.status }
      : { status: result.status, ...('texts' in result ? { texts: result.texts } : {}) };
  const diffs = Object.entries(example.expected)
    .filter(([key, want]) => !sameValue(want, observed[key]))
    .map(([key, want]) => `${key}: expected ${show(want)}, got ${show(observed[key])}`);
  if (diffs.length === 0) return null;
  if (result.status === 'paused') diffs.unshift(`paused at gate ${result.pendingQuestions.map((q) => q.name).join(', ')}`);
  if (result.status === 'missing_inputs') diffs.unshift(`missing inputs ${result.missing.join(', ')}`);
  return diffs.join('; ');
}

const show = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k as keyof typeof a], b[k as keyof typeof b]));
  }
  return a === b;
}
