import type { ErrorObject } from 'ajv';
import { AppError } from '../shared/errors.js';

/** `/requestBody/definition/steps/2/expr` -> `definition.steps[2].expr` */
function dotted(segments: string[]): string {
  return segments
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

/** Turns openapi-backend's Ajv errors into one VALIDATION_ERROR naming the field. */
export function validationError(errors: ErrorObject[]): AppError {
  // Prefer the deepest error: with oneOf the most specific branch explains the problem best.
  const error = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (!error) return new AppError('VALIDATION_ERROR', 'request: is invalid', { field: 'request', issue: 'is invalid' });
  const [where = '', ...rest] = error.instancePath.split('/').filter(Boolean);
  const params = error.params as Record<string, unknown>;
  const extra =
    error.keyword === 'required' ? String(params.missingProperty)
    : error.keyword === 'additionalProperties' ? String(params.additionalProperty)
    : error.keyword === 'unevaluatedProperties' ? String(params.unevaluatedProperty)
    : undefined;
  const segments = extra ? [...rest, extra] : rest;
  let field = dotted(segments);
  if (!field) field = where === 'requestBody' || where === '' ? 'body' : where;
  let issue = error.message ?? 'is invalid';
  if (error.keyword === 'required') issue = 'is required';
  else if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') issue = 'is not a known field';
  else if (error.keyword === 'enum') issue = `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
  else if (error.keyword === 'parse') issue = 'is not valid JSON';
  return new AppError('VALIDATION_ERROR', `${field}: ${issue}`, { field, issue });
}
