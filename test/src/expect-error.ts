import { LemmaError } from '@lemma/sdk';
import { expect } from 'vitest';

/** Awaits a call that must fail with this status and code (and field, for validation errors). */
export async function expectError(call: Promise<unknown>, status: number, code: string, field?: string): Promise<LemmaError> {
  const err = await call.then(
    (value) => {
      throw new Error(`expected ${status} ${code}, got success: ${JSON.stringify(value).slice(0, 300)}`);
    },
    (e: unknown) => e,
  );
  expect(err, String(err)).toBeInstanceOf(LemmaError);
  const e = err as LemmaError;
  expect({ status: e.status, code: e.code }, JSON.stringify(e.toJSON())).toEqual({ status, code });
  if (field !== undefined) expect(e.details.field, JSON.stringify(e.toJSON())).toBe(field);
  return e;
}
