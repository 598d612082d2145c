/**
 * The local provider's parse stage: parseQuery reads a question's clauses, values, jurisdiction
 * and keywords; bindInputs binds them to one unit's inputs. Deterministic, no network.
 * docs/PARSER.md describes what it understands.
 */
export { bindInputs } from './bind-inputs.js';
export { parseQuery } from './parse-query.js';
export type { Binding, BindResult, DurationUnit, ExtractedValue, ParsedQuery, QueryClause, ValueKind } from './types.js';
