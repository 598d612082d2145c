import { describe, expect, it } from 'vitest';
import { type UnitDraft, validateUnitDefinition } from './validate-definition.js';

type Draft = UnitDraft & Record<string, unknown>;

const program = (): Draft => ({
  unitType: 'program',
  then: 'Accrues {{vacation_days}} days.',
  inputSchema: {
    type: 'object',
    properties: { years_of_service: { type: 'number', 'x-aliases': ['tenure'] }, part_time: { type: 'boolean' } },
    required: ['years_of_service'],
  },
  outputSchema: { type: 'object', properties: { vacation_days: { type: 'integer' } } },
  definition: {
    steps: [
      { id: 'base', set: 'vacation_days', expr: '10' },
      { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
      { id: 'factor', set: 'factor', expr: '2' },
      { id: 'pt', if: 'part_time', set: 'vacation_days', expr: 'vacation_days / factor', exception: true },
    ],
  },
  examples: [{ name: 'twelve', inputs: { years_of_service: 12 }, expected: { vacation_days: 15 } }],
});

const framework = (): Draft => ({
  unitType: 'framework',
  inputSchema: { type: 'object', properties: { dti: { type: 'number' }, credit_score: { type: 'integer' } } },
  outputSchema: { type: 'object', properties: { score: { type: 'number' }, passed: { type: 'boolean' } } },
  definition: {
    elements: [
      { id: 'dti', label: 'Low DTI', weight: 0.5, when: 'dti < 0.36' },
      { id: 'always', label: 'Base', weight: 1 },
    ],
    threshold: 1,
    outcomes: { pass: 'Approved with {{score}}.', fail: 'Declined ({{score}} < {{threshold}}).' },
  },
  examples: [{ name: 'low', inputs: { dti: 0.2 }, expected: { passed: true, outcome: 'pass', texts: ['Approved with 1.5.'] } }],
});

const inputs = { type: 'object', properties: { hours: { type: 'number' }, exempt: { type: 'boolean' } } };
const pattern = (): Draft => ({
  unitType: 'pattern',
  inputSchema: inputs,
  outputSchema: { type: 'object', properties: { fires: { type: 'boolean' } } },
  definition: {
    elements: [
      { id: 'over', kind: 'condition', when: 'hours > 40' },
      { id: 'ot', kind: 'conclusion', text: 'Overtime for {{hours}} hours.' },
    ],
  },
});

const argument = (): Draft => ({
  unitType: 'argument',
  inputSchema: inputs,
  definition: {
    elements: [
      { id: 'p1', kind: 'premise', text: 'Worked {{hours}} hours.', when: 'hours > 40' },
      { id: 'p2', kind: 'premise', text: 'The law applies.' },
      { id: 'r1', kind: 'rebuttal', text: 'Exempt.', when: 'exempt' },
      { id: 'c', kind: 'conclusion', text: 'Overtime is owed.' },
    ],
  },
});

const protocol = (): Draft => ({
  unitType: 'protocol',
  then: 'Done ({{consent}}).',
  inputSchema: { type: 'object', properties: { employee: { type: 'string' } } },
  outputSchema: { type: 'object', properties: { consent: { type: 'string' } } },
  definition: {
    steps: [
      { id: 'notify', text: 'Notify {{employee}}.' },
      { id: 'ask', gate: { name: 'consent', question: 'Does {{employee}} consent?', options: ['yes', 'no'] } },
      { id: 'after', if: 'consent == "yes"', text: 'Consent ({{consent}}) recorded.' },
    ],
  },
  examples: [{ name: 'yes', inputs: { employee: 'Ann', consent: 'yes' }, expected: { texts: ['Notify Ann.', 'Consent (yes) recorded.', 'Done (yes).'] } }],
});

const bases = { program, framework, pattern, argument, protocol };

/** Reaches into a fresh unit by path and changes it; `undefined` deletes the key. */
function edit(make: () => Draft, path: (string | number)[], value: unknown): Draft {
  const unit = make();
  let at: Record<string | number, unknown> = unit;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return unit;
}

describe('validateUnitDefinition: valid units', () => {
  it.each(Object.entries(bases))('accepts a %s unit', (_type, make) => {
    expect(validateUnitDefinition(make())).toBeNull();
  });

  it('accepts a declarative unit whose then names inputs and outputs', () => {
    expect(validateUnitDefinition({
      unitType: 'argument',
      then: '{{a}} and {{b}}',
      inputSchema: { properties: { a: { type: 'string' } } },
      outputSchema: { properties: { b: { type: 'string' } } },
    })).toBeNull();
  });

  it('lets a protocol condition test a gate asked earlier, and an exception read what a later ordinary step set', () => {
    const p = program();
    p.definition = {
      steps: [
        { id: 'fix', if: 'bonus > 10', set: 'vacation_days', expr: '30', exception: true },
        { id: 'base', set: 'vacation_days', expr: '10' },
        { id: 'bonus', set: 'bonus', expr: 'vacation_days + 1' },
      ],
    };
    expect(validateUnitDefinition(p)).toBeNull();
  });

  it('accepts CEL macros, string functions and mixed int/double arithmetic', () => {
    const p = edit(program, ['definition', 'steps', 1, 'if'], '[1, 2].all(x, x < years_of_service * 2) && "ab".startsWith("a")');
    expect(validateUnitDefinition(p)).toBeNull();
  });
});

const cases: [string, () => Draft, string, RegExp][] = [
  // Unit-level fields.
  ['unknown unitType', () => ({ ...program(), unitType: 'rule' }), 'unitType', /must be one of program/],
  ['schema not an object', () => ({ ...program(), inputSchema: 'years' }), 'inputSchema', /object/],
  ['property schema not an object', () => edit(program, ['inputSchema', 'properties', 'part_time'], true), 'inputSchema.properties.part_time', /object/],
  ['required not an array', () => edit(program, ['inputSchema', 'required'], 'years_of_service'), 'inputSchema.required', /array/],
  ['schema type not object', () => edit(program, ['inputSchema', 'type'], 'array'), 'inputSchema.type', /object/],
  ['bad variable name', () => edit(program, ['inputSchema', 'properties', '2x'], { type: 'number' }), 'inputSchema.properties.2x', /variable name/],
  ['reserved word', () => edit(program, ['inputSchema', 'properties', 'in'], { type: 'number' }), 'inputSchema.properties.in', /reserved/],
  ['unknown property type', () => edit(program, ['inputSchema', 'properties', 'part_time', 'type'], 'date'), 'inputSchema.properties.part_time.type', /one of/],
  ['empty enum', () => edit(program, ['inputSchema', 'properties', 'part_time', 'enum'], []), 'inputSchema.properties.part_time.enum', /non-empty/],
  ['required names no property', () => edit(program, ['inputSchema', 'required'], ['years_of_service', 'age']), 'inputSchema.required[1]', /property/],
  ['output also an input', () => edit(program, ['outputSchema', 'properties', 'part_time'], { type: 'boolean' }), 'outputSchema.properties.part_time', /also an input/],
  ['malformed placeholder in then', () => edit(program, ['then'], 'Accrues {{vacation days}}.'), 'then', /not a variable name/],
  ['unknown placeholder in then', () => edit(program, ['then'], 'Accrues {{days}}.'), 'then', /\{\{days\}\} is not a variable/],
  ['definition not an object', () => edit(program, ['definition'], ['x']), 'definition', /object/],

  // Programs.
  ['no steps', () => edit(program, ['definition', 'steps'], []), 'definition.steps', /non-empty array/],
  ['steps of another type', () => edit(program, ['definition'], { elements: [] }), 'definition.elements', /not a field/],
  ['step not an object', () => edit(program, ['definition', 'steps', 1], 'x'), 'definition.steps[1]', /object/],
  ['when instead of if', () => edit(program, ['definition', 'steps', 1, 'when'], 'true'), 'definition.steps[1].when', /not a field/],
  ['bad id', () => edit(program, ['definition', 'steps', 0, 'id'], 'a b'), 'definition.steps[0].id', /must be an id/],
  ['duplicate id', () => edit(program, ['definition', 'steps', 2, 'id'], 'base'), 'definition.steps[2].id', /duplicate id "base"/],
  ['bad set', () => edit(program, ['definition', 'steps', 0, 'set'], 'vacation-days'), 'definition.steps[0].set', /variable name/],
  ['assigning an input', () => edit(program, ['definition', 'steps', 2, 'set'], 'years_of_service'), 'definition.steps[2].set', /is an input/],
  ['exception not boolean', () => edit(program, ['definition', 'steps', 3, 'exception'], 'yes'), 'definition.steps[3].exception', /boolean/],
  ['empty expr', () => edit(program, ['definition', 'steps', 2, 'expr'], ' '), 'definition.steps[2].expr', /non-empty/],
  ['invalid CEL', () => edit(program, ['definition', 'steps', 2, 'expr'], '2 +'), 'definition.steps[2].expr', /not valid CEL/],
  ['unknown variable', () => edit(program, ['definition', 'steps', 1, 'if'], 'tenure >= 5'), 'definition.steps[1].if', /refers to tenure, which is not a variable in scope/],
  ['variable set only by a later step', () => edit(program, ['definition', 'steps', 1, 'if'], 'factor > 1'), 'definition.steps[1].if', /refers to factor, which/],
  ['condition not bool', () => edit(program, ['definition', 'steps', 1, 'if'], 'years_of_service + 1'), 'definition.steps[1].if', /condition \(bool\), not double/],
  ['type error', () => edit(program, ['definition', 'steps', 2, 'expr'], '"a" * 2'), 'definition.steps[2].expr', /type-check/],
  ['string into an integer output', () => edit(program, ['definition', 'steps', 0, 'expr'], '"ten"'), 'definition.steps[0].expr', /yields string, but "vacation_days" is int/],
  ['double into an integer output', () => edit(program, ['definition', 'steps', 0, 'expr'], '10.5'), 'definition.steps[0].expr', /yields double/],
  ['output no step sets', () => edit(program, ['outputSchema', 'properties', 'carry_over'], { type: 'integer' }), 'outputSchema.properties.carry_over', /no step sets/],
  ['intermediate never read', () => edit(program, ['definition', 'steps', 3, 'expr'], 'vacation_days / 2'), 'definition.steps[2].set', /neither a declared output nor read/],

  // Frameworks.
  ['input named like an outcome variable', () => edit(framework, ['inputSchema', 'properties', 'score'], { type: 'integer' }), 'inputSchema.properties.score', /outcome variable of framework/],
  ['weight not a number', () => edit(framework, ['definition', 'elements', 1, 'weight'], '1'), 'definition.elements[1].weight', /number/],
  ['missing label', () => edit(framework, ['definition', 'elements', 0, 'label'], undefined), 'definition.elements[0].label', /non-empty string/],
  ['threshold not numeric', () => edit(framework, ['definition', 'threshold'], 'high'), 'definition.threshold', /number/],
  ['outcomes missing', () => edit(framework, ['definition', 'outcomes'], undefined), 'definition.outcomes', /object/],
  ['outcome text missing', () => edit(framework, ['definition', 'outcomes', 'fail'], undefined), 'definition.outcomes.fail', /string/],
  ['bad when', () => edit(framework, ['definition', 'elements', 0, 'when'], 'dti <'), 'definition.elements[0].when', /not valid CEL/],
  ['duplicate element id', () => edit(framework, ['definition', 'elements', 1, 'id'], 'dti'), 'definition.elements[1].id', /duplicate/],
  ['unknown placeholder in an outcome', () => edit(framework, ['definition', 'outcomes', 'pass'], 'OK {{rating}}'), 'definition.outcomes.pass', /\{\{rating\}\}/],
  ['output a framework cannot produce', () => edit(framework, ['outputSchema', 'properties', 'risk'], { type: 'string' }), 'outputSchema.properties.risk', /produces only score, threshold, passed, outcome/],
  ['outcome output of the wrong type', () => edit(framework, ['outputSchema', 'properties', 'passed', 'type'], 'string'), 'outputSchema.properties.passed.type', /boolean/],

  // Patterns.
  ['no condition', () => edit(pattern, ['definition', 'elements', 0], { id: 'x', kind: 'conclusion', text: 'X' }), 'definition.elements', /at least one condition/],
  ['no conclusion', () => edit(pattern, ['definition', 'elements', 1], { id: 'x', kind: 'condition', when: 'exempt' }), 'definition.elements', /at least one conclusion/],
  ['unknown kind', () => edit(pattern, ['definition', 'elements', 1, 'kind'], 'premise'), 'definition.elements[1].kind', /condition or conclusion/],
  ['condition without when', () => edit(pattern, ['definition', 'elements', 0, 'when'], undefined), 'definition.elements[0].when', /non-empty/],
  ['conclusion with a when', () => edit(pattern, ['definition', 'elements', 1, 'when'], 'true'), 'definition.elements[1].when', /not a field/],
  ['pattern output other than fires', () => edit(pattern, ['outputSchema', 'properties', 'eligible'], { type: 'boolean' }), 'outputSchema.properties.eligible', /produces only fires/],

  // Arguments.
  ['no premise', () => edit(argument, ['definition', 'elements'], [{ id: 'c', kind: 'conclusion', text: 'C' }]), 'definition.elements', /at least one premise/],
  ['two conclusions', () => edit(argument, ['definition', 'elements', 4], { id: 'c2', kind: 'conclusion', text: 'C2' }), 'definition.elements', /exactly one conclusion/],
  ['no conclusion', () => edit(argument, ['definition', 'elements', 3], { id: 'p3', kind: 'premise', text: 'P' }), 'definition.elements', /exactly one conclusion/],
  ['conclusion with when', () => edit(argument, ['definition', 'elements', 3, 'when'], 'true'), 'definition.elements[3].when', /conclusion has no condition/],
  ['rebuttal without when', () => edit(argument, ['definition', 'elements', 2, 'when'], undefined), 'definition.elements[2].when', /rebuttal needs a condition/],
  ['argument kind wrong', () => edit(argument, ['definition', 'elements', 0, 'kind'], 'condition'), 'definition.elements[0].kind', /premise, rebuttal or conclusion/],
  ['premise text with unknown placeholder', () => edit(argument, ['definition', 'elements', 0, 'text'], '{{days}}'), 'definition.elements[0].text', /\{\{days\}\}/],
  ['premise when not bool', () => edit(argument, ['definition', 'elements', 0, 'when'], 'hours'), 'definition.elements[0].when', /bool/],

  // Protocols.
  ['step with text and gate', () => edit(protocol, ['definition', 'steps', 0, 'gate'], { name: 'g', question: 'Q', options: ['a', 'b'] }), 'definition.steps[0]', /either text or gate/],
  ['step with neither', () => edit(protocol, ['definition', 'steps', 0, 'text'], undefined), 'definition.steps[0]', /either text or gate/],
  ['gate with one option', () => edit(protocol, ['definition', 'steps', 1, 'gate', 'options'], ['yes']), 'definition.steps[1].gate.options', /at least 2 options/],
  ['gate with duplicate options', () => edit(protocol, ['definition', 'steps', 1, 'gate', 'options'], ['yes', 'yes']), 'definition.steps[1].gate.options', /distinct/],
  ['gate with an empty option', () => edit(protocol, ['definition', 'steps', 1, 'gate', 'options'], ['yes', '']), 'definition.steps[1].gate.options[1]', /non-empty/],
  ['gate without question', () => edit(protocol, ['definition', 'steps', 1, 'gate', 'question'], undefined), 'definition.steps[1].gate.question', /non-empty/],
  ['gate named like an input', () => edit(protocol, ['definition', 'steps', 1, 'gate', 'name'], 'employee'), 'definition.steps[1].gate.name', /already an input/],
  ['gate with a bad name', () => edit(protocol, ['definition', 'steps', 1, 'gate', 'name'], 'has space'), 'definition.steps[1].gate.name', /variable name/],
  ['if reading a later gate', () => edit(protocol, ['definition', 'steps', 0, 'if'], 'consent == "yes"'), 'definition.steps[0].if', /refers to consent, which/],
  ['text naming a later gate', () => edit(protocol, ['definition', 'steps', 0, 'text'], 'Ask {{consent}}'), 'definition.steps[0].text', /\{\{consent\}\}/],
  ['gate output of the wrong type', () => edit(protocol, ['outputSchema', 'properties', 'consent', 'type'], 'boolean'), 'outputSchema.properties.consent.type', /string/],
  ['protocol output that is no gate', () => edit(protocol, ['outputSchema', 'properties', 'result'], { type: 'string' }), 'outputSchema.properties.result', /gate names/],

  // Examples.
  ['examples not an array', () => ({ ...program(), examples: {} }), 'examples', /array/],
  ['example without name', () => edit(program, ['examples', 0, 'name'], ''), 'examples[0].name', /non-empty/],
  ['duplicate example name', () => ({ ...program(), examples: [...(program().examples as unknown[]), { name: 'twelve', inputs: {}, expected: {} }] }), 'examples[1].name', /duplicate/],
  ['example with an unknown input', () => edit(program, ['examples', 0, 'inputs', 'tenure'], 3), 'examples[0].inputs.tenure', /not an input/],
  ['example expecting an unknown key', () => edit(program, ['examples', 0, 'expected', 'days'], 3), 'examples[0].expected.days', /not an output/],
  ['example expecting another type\'s outcome', () => edit(framework, ['examples', 0, 'expected', 'fires'], true), 'examples[0].expected.fires', /not an output/],
];

describe('validateUnitDefinition: the first problem, with its dotted field', () => {
  it.each(cases)('%s', (_label, make, field, issue) => {
    const result = validateUnitDefinition(make());
    expect(result, JSON.stringify(result)).toEqual({ field, issue: expect.stringMatching(issue) as string });
  });
});
