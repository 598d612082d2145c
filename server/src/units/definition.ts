/**
 * The shapes of a unit's typed variables, definitions and examples, named exactly as in the
 * contract (openapi.yaml: UnitIoSchema, ProgramDefinition, …, UnitExample).
 */

export type UnitType = 'program' | 'framework' | 'pattern' | 'argument' | 'protocol';
export const UNIT_TYPES: readonly UnitType[] = ['program', 'framework', 'pattern', 'argument', 'protocol'];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type VariableType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
export const VARIABLE_TYPES: readonly VariableType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array'];

/** JSON Schema of one variable; `x-aliases` help the query parser recognise it. */
export interface VariableSchema {
  type?: VariableType;
  title?: string;
  description?: string;
  enum?: unknown[];
  'x-aliases'?: string[];
  [keyword: string]: unknown;
}

/** A unit's `inputSchema` or `outputSchema`. */
export interface IoSchema {
  type?: 'object';
  properties?: Record<string, VariableSchema>;
  required?: string[];
  [keyword: string]: unknown;
}

export interface ProgramStep {
  id: string;
  if?: string;
  set: string;
  expr: string;
  exception?: boolean;
}
export interface ProgramDefinition {
  steps: ProgramStep[];
}

export interface FrameworkElement {
  id: string;
  label: string;
  weight: number;
  when?: string;
}
export interface FrameworkDefinition {
  elements: FrameworkElement[];
  threshold: number;
  outcomes: { pass: string; fail: string };
}

export interface PatternCondition {
  id: string;
  kind: 'condition';
  when: string;
}
export interface PatternConclusion {
  id: string;
  kind: 'conclusion';
  text: string;
}
export type PatternElement = PatternCondition | PatternConclusion;
export interface PatternDefinition {
  elements: PatternElement[];
}

export interface ArgumentElement {
  id: string;
  kind: 'premise' | 'rebuttal' | 'conclusion';
  text: string;
  when?: string;
}
export interface ArgumentDefinition {
  elements: ArgumentElement[];
}

export interface ProtocolGate {
  name: string;
  question: string;
  options: string[];
}
export interface ProtocolTextStep {
  id: string;
  text: string;
  if?: string;
}
export interface ProtocolGateStep {
  id: string;
  gate: ProtocolGate;
  if?: string;
}
export type ProtocolStep = ProtocolTextStep | ProtocolGateStep;
export interface ProtocolDefinition {
  steps: ProtocolStep[];
}

export type UnitDefinition =
  | ProgramDefinition
  | FrameworkDefinition
  | PatternDefinition
  | ArgumentDefinition
  | ProtocolDefinition;

/** A test case pinned by an expert; `expected` is compared key by key (see runExamples). */
export interface UnitExample {
  name: string;
  inputs: Record<string, unknown>;
  expected: Record<string, unknown>;
}

export interface UnitExampleResults {
  passing: number;
  failing: number;
  failures: { name: string; message: string }[];
}

/** The parts of a unit record the executor needs; `id` + `version` key the compile cache. */
export interface ExecutableUnit {
  id?: string;
  version?: number;
  unitType: UnitType;
  inputSchema?: IoSchema | null;
  outputSchema?: IoSchema | null;
  then?: string | null;
  definition?: UnitDefinition | null;
}

/**
 * Variables a structured unit concludes besides its inputs. They may be declared in its
 * `outputSchema` (to feed other units), used in its texts' placeholders and named in
 * examples' `expected`. A protocol's outputs are its gates' answers instead.
 */
export const OUTCOME_VARIABLES = {
  program: [],
  framework: ['score', 'threshold', 'passed', 'outcome'],
  pattern: ['fires'],
  argument: ['stands', 'defeatedBy'],
  protocol: [],
} as const satisfies Record<UnitType, readonly string[]>;

/** The JSON type of each outcome variable, for checking a declared output against it. */
export const OUTCOME_TYPES: Record<string, VariableType> = {
  score: 'number',
  threshold: 'number',
  passed: 'boolean',
  outcome: 'string',
  fires: 'boolean',
  stands: 'boolean',
  defeatedBy: 'string',
};
