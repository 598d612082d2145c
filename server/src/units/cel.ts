import { Environment, EvaluationError, ParseError } from '@marcbachmann/cel-js';
import type { JsonValue, VariableSchema } from './definition.js';

/**
 * CEL for unit definitions, over @marcbachmann/cel-js.
 *
 * Numbers: CEL keeps `int` (a JS bigint here) and `double` (a JS number) apart. A variable
 * declared `integer` is an `int` and one declared `number` is a `double`, whatever the JSON
 * looked like: `years_of_service: 12` and `12.5` are both doubles, so `years_of_service >= 5`
 * holds for both. Comparisons across int and double are standard CEL; on top of it this
 * environment defines `+ - * /` and `==` between int and double (the result is a double), so an
 * expert may write `salary * 2` rather than `salary * 2.0`. `int / int` stays integer division
 * (CEL). Outputs leave as JSON numbers.
 */

/** The CEL type of a schema type; anything else (or no type) is `dyn`. */
const CEL_TYPES: Record<string, string> = {
  string: 'string',
  number: 'double',
  integer: 'int',
  boolean: 'bool',
  object: 'map',
  array: 'list',
};

export const celTypeOf = (schema: VariableSchema | undefined): string =>
  (typeof schema?.type === 'string' && CEL_TYPES[schema.type]) || 'dyn';

/** Words CEL reserves: they cannot name a variable. */
export const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const base = new Environment({ homogeneousAggregateLiterals: false });
for (const [left, right] of [['int', 'double'], ['double', 'int']] as const) {
  const sig = (op: string) => `${left} ${op} ${right}: double`;
  base
    .registerOperator(sig('+'), (a: number | bigint, b: number | bigint) => Number(a) + Number(b))
    .registerOperator(sig('-'), (a: number | bigint, b: number | bigint) => Number(a) - Number(b))
    .registerOperator(sig('*'), (a: number | bigint, b: number | bigint) => Number(a) * Number(b))
    .registerOperator(sig('/'), (a: number | bigint, b: number | bigint) => Number(a) / Number(b));
}
// Registering `int == double` also defines `double == int` and both `!=`.
base.registerOperator('int == double', (a: bigint, b: number) => Number(a) === b);

/** A fresh environment for one unit (cloning freezes the base, which is complete by now). */
export const unitEnvironment = (): Environment => base.clone();

export type CelContext = Record<string, unknown>;
export type CelProgram = (context: CelContext) => unknown;

/** Parses and type-checks one expression; the program runs it against a context. */
export function compileCel(
  env: Environment, source: string,
): { program: CelProgram; type: string; identifiers: Set<string> } | { error: string } {
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.parse(source);
  } catch (err) {
    if (err instanceof ParseError) return { error: `is not valid CEL: ${err.summary}` };
    throw err;
  }
  const checked = parsed.check();
  if (!checked.valid) {
    const e = checked.error;
    if (e?.code === 'unknown_variable') {
      const name = /: (\S+)$/.exec(e.summary)?.[1] ?? e.summary;
      return { error: `refers to ${name}, which is not a variable in scope here` };
    }
    return { error: `does not type-check: ${e?.summary ?? 'invalid expression'}` };
  }
  const program: CelProgram = parsed;
  return { program, type: checked.type ?? 'dyn', identifiers: identifiers(parsed.ast, new Set()) };
}

/** Every identifier an AST reads (macro variables included: an over-approximation is enough). */
function identifiers(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) identifiers(n, out);
  else if (typeof node === 'object' && node !== null && 'op' in node && 'args' in node) {
    if (node.op === 'id' && typeof node.args === 'string') out.add(node.args);
    else identifiers(node.args, out);
  }
  return out;
}

/** Whether a value of CEL type `actual` may be stored in a variable of type `target`. */
export function assignable(actual: string, target: string): boolean {
  if (target === 'dyn' || actual === 'dyn' || actual === target) return true;
  if (target === 'double') return actual === 'int';
  return (target === 'map' || target === 'list') && actual.startsWith(target);
}

/** The CEL error's short text and code, for an ExecutionError. */
export const describeCelError = (err: unknown): { code: string; message: string } =>
  err instanceof EvaluationError
    ? { code: err.code, message: err.summary }
    : { code: 'error', message: err instanceof Error ? err.message : String(err) };

/** A CEL result as JSON: ints become numbers, timestamps ISO strings, maps objects. */
export function toJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return Number(value);
    case 'number':
    case 'string':
    case 'boolean':
      return value;
    case 'object':
      if (Array.isArray(value)) return value.map(toJson);
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toJson(v)]));
      if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
      }
      return primitiveOf(value);
    default:
      return String(value);
  }
}

/** Library values such as uint or duration: their primitive value when they have one. */
function primitiveOf(value: object): JsonValue {
  const primitive: unknown = value.valueOf();
  return typeof primitive === 'bigint' || typeof primitive === 'number' ? Number(primitive) : String(value);
}

/** A value as text in a rendered sentence: numbers without float noise, lists comma-separated. */
export function formatValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  const json = toJson(value);
  return typeof json === 'object' ? JSON.stringify(json) : formatValue(json);
}
