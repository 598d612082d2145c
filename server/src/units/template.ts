import { formatValue } from './cel.js';

/** A text with `{{variable}}` placeholders, split once so rendering is a join. */
export interface Template {
  /** Literal pieces; `parts.length === names.length + 1`. */
  readonly parts: readonly string[];
  readonly names: readonly string[];
}

const PLACEHOLDER = /\{\{(.*?)\}\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits a text at its placeholders; a placeholder that is not a variable name is an error. */
export function parseTemplate(text: string): Template | { error: string } {
  const parts: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = (match[1] ?? '').trim();
    if (!NAME.test(name)) return { error: `placeholder ${match[0]} is not a variable name` };
    parts.push(text.slice(last, match.index));
    names.push(name);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return { parts, names };
}

/**
 * Fills the placeholders from the variables. A variable without a value (an optional input not
 * given, an output no step set) keeps its `{{name}}`, so a gap shows rather than a guess.
 */
export function renderTemplate(template: Template, vars: Record<string, unknown>): string {
  let out = template.parts[0] ?? '';
  for (let i = 0; i < template.names.length; i++) {
    const name = template.names[i] as string;
    const value = vars[name];
    out += (value === undefined || value === null ? `{{${name}}}` : formatValue(value)) + (template.parts[i + 1] ?? '');
  }
  return out;
}
