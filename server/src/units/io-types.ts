import type { IoSchema, VariableSchema } from './definition.js';

/** A unit's variables by name with their schemas. */
export const variablesOf = (schema: IoSchema | null | undefined): Record<string, VariableSchema> => schema?.properties ?? {};

const typeName = (schema: VariableSchema | undefined): string | undefined => (typeof schema?.type === 'string' ? schema.type : undefined);

/**
 * Whether a value produced as `producer` may feed a variable declared as `consumer`: the same
 * JSON type, an integer into a number, or either side untyped.
 */
export function typesCompatible(producer: VariableSchema | undefined, consumer: VariableSchema | undefined): boolean {
  const from = typeName(producer);
  const to = typeName(consumer);
  return from === undefined || to === undefined || from === to || (from === 'integer' && to === 'number');
}

export const describeType = (schema: VariableSchema | undefined): string => typeName(schema) ?? 'any';
