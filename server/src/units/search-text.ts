import type { IoSchema, VariableSchema } from './definition.js';
import type { UnitContent } from './unit-record.js';

const variableWords = (name: string, schema: VariableSchema): string[] => {
  const words = [name.replace(/_/g, ' ')];
  if (typeof schema.title === 'string') words.push(schema.title);
  if (typeof schema.description === 'string') words.push(schema.description);
  for (const alias of schema['x-aliases'] ?? []) words.push(alias);
  for (const value of schema.enum ?? []) if (typeof value === 'string') words.push(value.replace(/_/g, ' '));
  const enumAliases = schema['x-enum-aliases'];
  if (typeof enumAliases === 'object' && enumAliases !== null) {
    for (const list of Object.values(enumAliases)) if (Array.isArray(list)) words.push(...list.filter((w): w is string => typeof w === 'string'));
  }
  return words;
};

const schemaWords = (schema: IoSchema): string[] =>
  Object.entries(schema.properties ?? {}).flatMap(([name, variable]) => variableWords(name, variable));

/**
 * What full-text matching searches for a unit: its name, description, GIVEN/WHEN/THEN and the
 * words of its variables (names, titles, descriptions, aliases, enum values). Placeholders are
 * kept as words (`{{vacation_days}}` -> `vacation days`).
 */
export function searchTextOf(content: UnitContent): string {
  const parts = [
    content.name, content.description, content.given, content.when, content.then,
    ...schemaWords(content.inputSchema), ...schemaWords(content.outputSchema),
  ];
  return parts
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .join('\n')
    .replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => name.replace(/_/g, ' '));
}
