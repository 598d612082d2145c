import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { UNIT_TYPES } from '../../units/definition.js';
import { compileUnit, runExamples } from '../../units/executor.js';
import { validateUnitDefinition } from '../../units/validate-definition.js';
import { DOMAIN_TEMPLATES, findDomainTemplate, type DomainTemplate } from './index.js';

/** The contract's schemas, to check the templates against DomainTemplate exactly. */
function contractValidator(): (value: unknown) => string | null {
  const file = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));
  const doc = parse(fs.readFileSync(file, 'utf8'), { merge: true, maxAliasCount: -1 }) as { components: { schemas: object } };
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'contract', components: doc.components });
  const validate = ajv.compile({ $ref: 'contract#/components/schemas/DomainTemplate' });
  return (value) => (validate(value) ? null : ajv.errorsText(validate.errors, { separator: '\n' }));
}

describe('domain templates', () => {
  it('has the six templates with unique slug ids', () => {
    const ids = DOMAIN_TEMPLATES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(['finance', 'legal', 'healthcare', 'hr', 'insurance', 'tax']);
    expect(findDomainTemplate('hr')?.name).toBe('HR');
    expect(findDomainTemplate('nope')).toBeUndefined();
  });

  const checkContract = contractValidator();

  describe.each(DOMAIN_TEMPLATES.map((t) => [t.id, t] as [string, DomainTemplate]))('%s', (_id, template) => {
    it('matches the contract (DomainTemplate)', () => {
      expect(checkContract(template)).toBeNull();
    });

    it('has 4-8 units covering all five unit types, with unique names', () => {
      expect(template.units.length).toBeGreaterThanOrEqual(4);
      expect(template.units.length).toBeLessThanOrEqual(8);
      expect(new Set(template.units.map((u) => u.unitType))).toEqual(new Set(UNIT_TYPES));
      const names = template.units.map((u) => u.name);
      expect(new Set(names).size).toBe(names.length);
    });

    it('gives each unit unambiguous variable aliases', () => {
      for (const unit of template.units) {
        const seen = new Map<string, string>();
        const props = { ...unit.inputSchema?.properties, ...unit.outputSchema?.properties };
        for (const [name, schema] of Object.entries(props)) {
          for (const word of [name, ...(schema['x-aliases'] ?? [])]) {
            const key = word.toLowerCase();
            expect(seen.get(key) ?? name, `${unit.name}: "${word}" names both ${seen.get(key)} and ${name}`).toBe(name);
            seen.set(key, name);
          }
        }
      }
    });

    it.each(template.units.map((u) => [u.name, u] as const))('%s: is valid and its examples pass', (_name, unit) => {
      expect(validateUnitDefinition(unit)).toBeNull();
      expect(unit.definition, 'every template unit is executable').toBeDefined();
      const examples = unit.examples ?? [];
      expect(examples.length, 'examples').toBeGreaterThanOrEqual(2);
      expect(examples.length, 'examples').toBeLessThanOrEqual(4);
      const results = runExamples(compileUnit(unit), examples);
      const failures = results.failures.map((f) => `${f.name}: ${f.message}`).join('\n');
      expect(results.failing, failures).toBe(0);
      expect(results.passing).toBe(examples.length);
    });
  });
});
