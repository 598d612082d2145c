import type { Environment } from '@marcbachmann/cel-js';
import { assignable, type CelProgram, celTypeOf, compileCel, RESERVED, unitEnvironment } from './cel.js';
import {
  OUTCOME_TYPES, OUTCOME_VARIABLES, UNIT_TYPES, type UnitType, VARIABLE_TYPES, type VariableSchema,
} from './definition.js';
import { parseTemplate, type Template } from './template.js';

/** The first problem found, as the API reports it (`details` of a 400 VALIDATION_ERROR). */
export interface FieldIssue {
  field: string;
  issue: string;
}

/** A unit as written, before anything about it is known to be well-formed. */
export interface UnitDraft {
  unitType: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  then?: unknown;
  definition?: unknown;
  examples?: unknown;
}

/** One parsed, type-checked CEL expression and where it came from. */
export interface CompiledExpr {
  readonly stepId: string;
  /** Dotted path of the expression, e.g. `definition.steps[1].if`. */
  readonly field: string;
  readonly run: CelProgram;
  /** Optional inputs it reads: when one is absent the run reports it missing instead. */
  readonly optionalInputs: readonly string[];
}

export interface InputVariable {
  readonly name: string;
  readonly type: string | undefined;
  readonly required: boolean;
  readonly enum: readonly unknown[] | undefined;
}

export interface CompiledProgramStep {
  readonly id: string;
  readonly if: CompiledExpr | undefined;
  readonly set: string;
  readonly expr: CompiledExpr;
  readonly exception: boolean;
  /** CEL type of `set`, to which the value is converted (int <-> double). */
  readonly target: string;
}

interface Conditional {
  readonly id: string;
  readonly when: CompiledExpr | undefined;
}

export type CompiledBody =
  | { kind: 'declarative' }
  /** Steps in run order: the ordinary ones, then the exceptions. */
  | { kind: 'program'; steps: readonly CompiledProgramStep[] }
  | {
      kind: 'framework';
      elements: readonly (Conditional & { label: string; weight: number })[];
      threshold: number;
      pass: Template;
      fail: Template;
    }
  | { kind: 'pattern'; conditions: readonly Conditional[]; conclusions: readonly { id: string; text: Template }[] }
  | {
      kind: 'argument';
      premises: readonly (Conditional & { text: Template })[];
      rebuttals: readonly (Conditional & { text: Template })[];
      conclusion: { id: string; text: Template };
    }
  | {
      kind: 'protocol';
      steps: readonly (
        | { id: string; if: CompiledExpr | undefined; text: Template }
        | { id: string; if: CompiledExpr | undefined; gate: { name: string; question: Template; options: readonly string[] } }
      )[];
    };

/** A unit ready to run: every expression parsed and checked once, every text split once. */
export interface CompiledUnit {
  readonly unitType: UnitType;
  readonly inputs: readonly InputVariable[];
  readonly outputs: readonly string[];
  readonly then: Template | null;
  readonly body: CompiledBody;
  /** Protocol gates by name, with their options (answers are checked against them). */
  readonly gates: ReadonlyMap<string, readonly string[]>;
}

/**
 * Checks a unit's schemas, `then`, definition and examples together, as on every write, and
 * returns the first problem with its dotted field path (`definition.steps[2].expr`), or null.
 *
 * Rules beyond the contract's shapes: ids are unique; every CEL expression compiles against the
 * variables in scope (inputs; in a program also what earlier steps set; in a protocol also the
 * gates asked earlier) and conditions are bool; a program step may not assign an input, and a
 * variable it sets that is not a declared output must be read later (else it is a typo); every
 * declared output must be producible (a program step sets it; a structured unit declares only
 * its outcome variables, see OUTCOME_VARIABLES, or a protocol its gate names); a rebuttal needs
 * `when` (one that always holds would defeat the conclusion unconditionally); placeholders name
 * known variables; examples name known inputs and expected keys.
 */
export function validateUnitDefinition(unit: UnitDraft): FieldIssue | null {
  const result = analyzeUnit(unit);
  if ('issue' in result) return result.issue;
  try {
    checkExamples(unit.examples, result.unit);
    return null;
  } catch (err) {
    return asIssue(err);
  }
}

/** Validates and compiles in one pass: the executor's compile step and the validator share it. */
export function analyzeUnit(unit: UnitDraft): { unit: CompiledUnit } | { issue: FieldIssue } {
  try {
    return { unit: analyze(unit) };
  } catch (err) {
    return { issue: asIssue(err) };
  }
}

class Invalid extends Error {
  constructor(readonly field: string, readonly issue: string) {
    super(`${field}: ${issue}`);
  }
}

/** The problem an Invalid carries; any other error is a bug and propagates. */
function asIssue(err: unknown): FieldIssue {
  if (err instanceof Invalid) return { field: err.field, issue: err.issue };
  throw err;
}

/** Stops the analysis at the first problem. */
function fail(field: string, issue: string): never {
  throw new Invalid(field, issue);
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

function object(value: unknown, field: string): Obj {
  return isObject(value) ? value : fail(field, 'must be an object');
}

function onlyKeys(value: Obj, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`${field}.${key}`, 'is not a field here');
}

function text(value: unknown, field: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fail(field, 'must be a non-empty string');
}

function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) fail(field, 'must be a non-empty array');
  return value;
}

function variableName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !NAME.test(value)) fail(field, 'must be a variable name (letters, digits, _; not starting with a digit)');
  if (RESERVED.has(value)) fail(field, `"${value}" is a reserved word in CEL`);
  return value;
}

/** Ids are unique across the steps or elements of one definition. */
function uniqueId(value: unknown, field: string, seen: Set<string>): string {
  if (typeof value !== 'string' || !ID.test(value)) fail(field, 'must be an id (letters, digits, _ and -)');
  if (seen.has(value)) fail(field, `duplicate id "${value}"`);
  seen.add(value);
  return value;
}

interface Variables {
  props: Map<string, VariableSchema>;
  required: Set<string>;
}

function readSchema(raw: unknown, field: string): Variables {
  const props = new Map<string, VariableSchema>();
  if (raw === undefined || raw === null) return { props, required: new Set() };
  const schema = object(raw, field);
  if (schema.type !== undefined && schema.type !== 'object') fail(`${field}.type`, 'must be "object"');
  if (schema.properties !== undefined) {
    for (const [name, prop] of Object.entries(object(schema.properties, `${field}.properties`))) {
      const at = `${field}.properties.${name}`;
      variableName(name, at);
      const p = object(prop, at);
      if (p.type !== undefined && !VARIABLE_TYPES.some((t) => t === p.type)) fail(`${at}.type`, `must be one of ${VARIABLE_TYPES.join(', ')}`);
      if (p.enum !== undefined && (!Array.isArray(p.enum) || p.enum.length === 0)) fail(`${at}.enum`, 'must be a non-empty array');
      props.set(name, p);
    }
  }
  const required = new Set<string>();
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) fail(`${field}.required`, 'must be an array of property names');
    schema.required.forEach((name, i) => {
      if (typeof name !== 'string' || !props.has(name)) fail(`${field}.required[${i}]`, 'must name a property');
      required.add(name);
    });
  }
  return { props, required };
}

/** What the analysis of one unit shares between its parts. */
interface Ctx {
  unitType: UnitType;
  inputs: Variables;
  outputs: Variables;
  /** Inputs, plus whatever each definition type brings into scope. */
  env: Environment;
}

function expression(ctx: Ctx, env: Environment, source: unknown, field: string, stepId: string, condition: boolean) {
  const src = text(source, field);
  const compiled = compileCel(env, src);
  if ('error' in compiled) fail(field, compiled.error);
  if (condition && compiled.type !== 'bool' && compiled.type !== 'dyn') fail(field, `must be a condition (bool), not ${compiled.type}`);
  const optionalInputs = [...compiled.identifiers].filter((n) => ctx.inputs.props.has(n) && !ctx.inputs.required.has(n));
  const expr: CompiledExpr = { stepId, field, run: compiled.program, optionalInputs };
  return { expr, type: compiled.type, reads: compiled.identifiers };
}

function optionalCondition(ctx: Ctx, env: Environment, source: unknown, field: string, stepId: string) {
  return source === undefined ? undefined : expression(ctx, env, source, field, stepId, true).expr;
}

/** A text's placeholders parsed; `known` (when given) are the variables they may name. */
function template(value: unknown, field: string, known?: ReadonlySet<string>): Template {
  const parsed = parseTemplate(typeof value === 'string' ? value : fail(field, 'must be a string'));
  if ('error' in parsed) fail(field, parsed.error);
  if (known) checkNames(parsed, field, known);
  return parsed;
}

function checkNames(tpl: Template, field: string, known: ReadonlySet<string>): void {
  for (const name of tpl.names) {
    if (!known.has(name)) fail(field, `placeholder {{${name}}} is not a variable of this unit (known: ${[...known].join(', ') || 'none'})`);
  }
}

const withVariable = (env: Environment, name: string, type: string): Environment => {
  try {
    return env.clone().registerVariable(name, type);
  } catch {
    // A type the checker inferred but cannot declare (an exotic generic): check later uses loosely.
    return env.clone().registerVariable(name, 'dyn');
  }
};

function analyze(unit: UnitDraft): CompiledUnit {
  const unitType = UNIT_TYPES.find((t) => t === unit.unitType) ?? fail('unitType', `must be one of ${UNIT_TYPES.join(', ')}`);
  const inputs = readSchema(unit.inputSchema, 'inputSchema');
  for (const name of OUTCOME_VARIABLES[unitType]) {
    if (inputs.props.has(name)) fail(`inputSchema.properties.${name}`, `is an outcome variable of ${unitType} units; rename the input`);
  }
  const outputs = readSchema(unit.outputSchema, 'outputSchema');
  for (const name of outputs.props.keys()) {
    if (inputs.props.has(name)) fail(`outputSchema.properties.${name}`, 'is also an input; a unit does not assign its inputs');
  }
  let env = unitEnvironment();
  for (const [name, schema] of inputs.props) env = env.registerVariable(name, celTypeOf(schema));
  const ctx: Ctx = { unitType, inputs, outputs, env };
  const then = unit.then === undefined || unit.then === null ? null : template(unit.then, 'then');

  const def = unit.definition;
  const analyzed =
    def === undefined || def === null
      ? { body: { kind: 'declarative' } as const, known: new Set([...inputs.props.keys(), ...outputs.props.keys()]) }
      : bodyOf(ctx, object(def, 'definition'), then?.names ?? []);
  const gates = new Map<string, readonly string[]>();
  if (analyzed.body.kind === 'protocol') {
    for (const step of analyzed.body.steps) if ('gate' in step) gates.set(step.gate.name, step.gate.options);
  }
  if (analyzed.body.kind !== 'declarative' && analyzed.body.kind !== 'program') checkProducible(ctx, gates);
  if (then) checkNames(then, 'then', analyzed.known);

  return {
    unitType,
    inputs: [...inputs.props].map(([name, s]) => ({ name, type: s.type, required: inputs.required.has(name), enum: s.enum })),
    outputs: [...outputs.props.keys()],
    then,
    body: analyzed.body,
    gates,
  };
}

/** The compiled body and the variables `then` may name. */
function bodyOf(ctx: Ctx, def: Obj, thenNames: readonly string[]): { body: CompiledBody; known: Set<string> } {
  switch (ctx.unitType) {
    case 'program':
      return program(ctx, def, thenNames);
    case 'framework':
      return framework(ctx, def);
    case 'pattern':
      return pattern(ctx, def);
    case 'argument':
      return argument(ctx, def);
    case 'protocol':
      return protocol(ctx, def);
  }
}

function program(ctx: Ctx, def: Obj, thenNames: readonly string[]) {
  onlyKeys(def, ['steps'], 'definition');
  const ids = new Set<string>();
  const raw = list(def.steps, 'definition.steps').map((value, i) => {
    const at = `definition.steps[${i}]`;
    const step = object(value, at);
    onlyKeys(step, ['id', 'if', 'set', 'expr', 'exception'], at);
    const id = uniqueId(step.id, `${at}.id`, ids);
    const set = variableName(step.set, `${at}.set`);
    if (ctx.inputs.props.has(set)) fail(`${at}.set`, `"${set}" is an input; inputs cannot be assigned`);
    if (step.exception !== undefined && typeof step.exception !== 'boolean') fail(`${at}.exception`, 'must be a boolean');
    return { at, id, set, step, exception: step.exception === true };
  });
  // Exceptions run after the ordinary steps, so they see everything those set.
  const order = [...raw.filter((s) => !s.exception), ...raw.filter((s) => s.exception)];
  let env = ctx.env;
  const types = new Map<string, string>();
  for (const [name, schema] of ctx.outputs.props) types.set(name, celTypeOf(schema));
  const firstSet = new Map<string, number>();
  const used = new Set<string>(thenNames);
  const steps = order.map(({ at, id, set, step, exception }, k) => {
    const cond = step.if === undefined ? undefined : expression(ctx, env, step.if, `${at}.if`, id, true);
    const value = expression(ctx, env, step.expr, `${at}.expr`, id, false);
    for (const name of [...(cond?.reads ?? []), ...value.reads]) if ((firstSet.get(name) ?? k) < k) used.add(name);
    const target = types.get(set) ?? value.type;
    if (!assignable(value.type, target)) fail(`${at}.expr`, `yields ${value.type}, but "${set}" is ${target}`);
    if (!firstSet.has(set)) {
      firstSet.set(set, k);
      types.set(set, target);
      env = withVariable(env, set, target);
    }
    return { id, if: cond?.expr, set, expr: value.expr, exception, target };
  });
  for (const name of ctx.outputs.props.keys()) {
    if (!firstSet.has(name)) fail(`outputSchema.properties.${name}`, 'no step sets this output');
  }
  for (const [name, k] of firstSet) {
    const step = order[k];
    if (step && !ctx.outputs.props.has(name) && !used.has(name)) {
      fail(`${step.at}.set`, `"${name}" is neither a declared output nor read by a later step or by then`);
    }
  }
  return { body: { kind: 'program', steps } as const, known: new Set([...ctx.inputs.props.keys(), ...firstSet.keys()]) };
}

/** Placeholders of a structured unit's texts may name its inputs, outputs and outcome variables. */
function structuredNames(ctx: Ctx): Set<string> {
  return new Set([...ctx.inputs.props.keys(), ...ctx.outputs.props.keys(), ...OUTCOME_VARIABLES[ctx.unitType]]);
}

function framework(ctx: Ctx, def: Obj) {
  onlyKeys(def, ['elements', 'threshold', 'outcomes'], 'definition');
  const ids = new Set<string>();
  const elements = list(def.elements, 'definition.elements').map((value, i) => {
    const at = `definition.elements[${i}]`;
    const el = object(value, at);
    onlyKeys(el, ['id', 'label', 'weight', 'when'], at);
    const id = uniqueId(el.id, `${at}.id`, ids);
    const label = text(el.label, `${at}.label`);
    if (typeof el.weight !== 'number' || !Number.isFinite(el.weight)) fail(`${at}.weight`, 'must be a number');
    return { id, label, weight: el.weight, when: optionalCondition(ctx, ctx.env, el.when, `${at}.when`, id) };
  });
  if (typeof def.threshold !== 'number' || !Number.isFinite(def.threshold)) fail('definition.threshold', 'must be a number');
  const outcomes = object(def.outcomes, 'definition.outcomes');
  onlyKeys(outcomes, ['pass', 'fail'], 'definition.outcomes');
  const known = structuredNames(ctx);
  const pass = template(outcomes.pass, 'definition.outcomes.pass', known);
  const failText = template(outcomes.fail, 'definition.outcomes.fail', known);
  return { body: { kind: 'framework', elements, threshold: def.threshold, pass, fail: failText } as const, known };
}

function pattern(ctx: Ctx, def: Obj) {
  onlyKeys(def, ['elements'], 'definition');
  const ids = new Set<string>();
  const known = structuredNames(ctx);
  const conditions: Conditional[] = [];
  const conclusions: { id: string; text: Template }[] = [];
  list(def.elements, 'definition.elements').forEach((value, i) => {
    const at = `definition.elements[${i}]`;
    const el = object(value, at);
    const id = uniqueId(el.id, `${at}.id`, ids);
    if (el.kind === 'condition') {
      onlyKeys(el, ['id', 'kind', 'when'], at);
      conditions.push({ id, when: expression(ctx, ctx.env, el.when, `${at}.when`, id, true).expr });
    } else if (el.kind === 'conclusion') {
      onlyKeys(el, ['id', 'kind', 'text'], at);
      conclusions.push({ id, text: template(text(el.text, `${at}.text`), `${at}.text`, known) });
    } else {
      fail(`${at}.kind`, 'must be condition or conclusion');
    }
  });
  if (conditions.length === 0) fail('definition.elements', 'needs at least one condition');
  if (conclusions.length === 0) fail('definition.elements', 'needs at least one conclusion');
  return { body: { kind: 'pattern', conditions, conclusions } as const, known };
}

function argument(ctx: Ctx, def: Obj) {
  onlyKeys(def, ['elements'], 'definition');
  const ids = new Set<string>();
  const known = structuredNames(ctx);
  const premises: (Conditional & { text: Template })[] = [];
  const rebuttals: (Conditional & { text: Template })[] = [];
  const conclusions: { id: string; text: Template }[] = [];
  list(def.elements, 'definition.elements').forEach((value, i) => {
    const at = `definition.elements[${i}]`;
    const el = object(value, at);
    onlyKeys(el, ['id', 'kind', 'text', 'when'], at);
    const id = uniqueId(el.id, `${at}.id`, ids);
    if (el.kind !== 'premise' && el.kind !== 'rebuttal' && el.kind !== 'conclusion') fail(`${at}.kind`, 'must be premise, rebuttal or conclusion');
    const body = template(text(el.text, `${at}.text`), `${at}.text`, known);
    if (el.kind === 'conclusion') {
      if (el.when !== undefined) fail(`${at}.when`, 'a conclusion has no condition: it stands or falls with the premises and rebuttals');
      conclusions.push({ id, text: body });
      return;
    }
    if (el.kind === 'rebuttal' && el.when === undefined) fail(`${at}.when`, 'a rebuttal needs a condition');
    (el.kind === 'premise' ? premises : rebuttals).push({ id, text: body, when: optionalCondition(ctx, ctx.env, el.when, `${at}.when`, id) });
  });
  if (premises.length === 0) fail('definition.elements', 'needs at least one premise');
  const [conclusion, extra] = conclusions;
  if (!conclusion || extra) fail('definition.elements', 'needs exactly one conclusion');
  return { body: { kind: 'argument', premises, rebuttals, conclusion } as const, known };
}

function protocol(ctx: Ctx, def: Obj) {
  onlyKeys(def, ['steps'], 'definition');
  const ids = new Set<string>();
  // Texts and conditions may name the gates asked before them; `then` may name every gate.
  const known = new Set([...ctx.inputs.props.keys()]);
  let env = ctx.env;
  const steps = list(def.steps, 'definition.steps').map((value, i) => {
    const at = `definition.steps[${i}]`;
    const step = object(value, at);
    const id = uniqueId(step.id, `${at}.id`, ids);
    const cond = optionalCondition(ctx, env, step.if, `${at}.if`, id);
    if (('text' in step) === ('gate' in step)) fail(at, 'must have either text or gate');
    if ('text' in step) {
      onlyKeys(step, ['id', 'text', 'if'], at);
      return { id, if: cond, text: template(text(step.text, `${at}.text`), `${at}.text`, known) };
    }
    onlyKeys(step, ['id', 'gate', 'if'], at);
    const gate = object(step.gate, `${at}.gate`);
    onlyKeys(gate, ['name', 'question', 'options'], `${at}.gate`);
    const name = variableName(gate.name, `${at}.gate.name`);
    if (known.has(name)) fail(`${at}.gate.name`, `"${name}" is already an input or an earlier gate`);
    const question = template(text(gate.question, `${at}.gate.question`), `${at}.gate.question`, known);
    if (!Array.isArray(gate.options) || gate.options.length < 2) fail(`${at}.gate.options`, 'needs at least 2 options');
    const options = gate.options.map((o, j) => text(o, `${at}.gate.options[${j}]`));
    if (new Set(options).size !== options.length) fail(`${at}.gate.options`, 'options must be distinct');
    known.add(name);
    // An answer is a string; a gate skipped by its `if` leaves null, hence dyn.
    env = withVariable(env, name, 'dyn');
    return { id, if: cond, gate: { name, question, options } };
  });
  for (const name of ctx.outputs.props.keys()) known.add(name);
  return { body: { kind: 'protocol', steps } as const, known };
}

/** A structured unit can only fill outputs named after its outcome variables or gates. */
function checkProducible(ctx: Ctx, gates: ReadonlyMap<string, readonly string[]>): void {
  const produced: readonly string[] = ctx.unitType === 'protocol' ? [...gates.keys()] : OUTCOME_VARIABLES[ctx.unitType];
  for (const [name, schema] of ctx.outputs.props) {
    const at = `outputSchema.properties.${name}`;
    if (!produced.includes(name)) {
      fail(at, `a ${ctx.unitType} unit produces only ${produced.join(', ') || 'nothing'}${ctx.unitType === 'protocol' ? ' (its gate names)' : ''}`);
    }
    const expected = ctx.unitType === 'protocol' ? 'string' : OUTCOME_TYPES[name];
    if (schema.type !== undefined && schema.type !== expected) fail(`${at}.type`, `must be ${expected}`);
  }
}

/** Keys an example's `expected` may name besides the declared outputs. */
export const EXAMPLE_META_KEYS = ['status', 'texts'] as const;

function checkExamples(raw: unknown, unit: CompiledUnit): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) fail('examples', 'must be an array');
  const inputs = new Set([...unit.inputs.map((i) => i.name), ...unit.gates.keys()]);
  const expectable = new Set<string>([...unit.outputs, ...OUTCOME_VARIABLES[unit.unitType], ...EXAMPLE_META_KEYS]);
  const names = new Set<string>();
  raw.forEach((value, i) => {
    const at = `examples[${i}]`;
    const example = object(value, at);
    onlyKeys(example, ['name', 'inputs', 'expected'], at);
    const name = text(example.name, `${at}.name`);
    if (names.has(name)) fail(`${at}.name`, `duplicate example name "${name}"`);
    names.add(name);
    for (const key of Object.keys(object(example.inputs, `${at}.inputs`))) {
      if (!inputs.has(key)) fail(`${at}.inputs.${key}`, 'is not an input (or gate) of this unit');
    }
    for (const key of Object.keys(object(example.expected, `${at}.expected`))) {
      if (!expectable.has(key)) fail(`${at}.expected.${key}`, `is not an output of this unit (expected may name ${[...expectable].join(', ')})`);
    }
  });
}
