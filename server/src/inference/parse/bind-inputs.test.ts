import { describe, expect, it } from 'vitest';
import type { IoSchema, VariableSchema } from '../../units/definition.js';
import { bindInputs } from './bind-inputs.js';
import { parseQuery } from './parse-query.js';

function schema(properties: Record<string, VariableSchema>, required: string[] = []): IoSchema {
  return { type: 'object', properties, required };
}

function bind(query: string, s: IoSchema) {
  return bindInputs(parseQuery(query), s);
}

describe('bindInputs: recognising a property', () => {
  it('by its name words', () => {
    const r = bind('She has 12 years of service.', schema({ years_of_service: { type: 'number' } }));
    expect(r.inputs).toEqual({ years_of_service: 12 });
    expect(r.bindings).toEqual([{ name: 'years_of_service', value: 12, kind: 'duration', clause: 0, raw: '12 years' }]);
  });

  it('by its title, description or x-aliases', () => {
    const s = schema({
      a: { type: 'number', title: 'Systolic blood pressure' },
      b: { type: 'number', description: 'Breaths counted over one minute at rest.' },
      c: { type: 'integer', 'x-aliases': ['GCS'] },
    });
    expect(bind('Systolic blood pressure 95, breaths 24, GCS 14', s).inputs).toEqual({ a: 95, b: 24, c: 14 });
  });

  it('camelCase names and number words', () => {
    expect(bind('twelve years of service', schema({ yearsOfService: { type: 'integer' } })).inputs).toEqual({ yearsOfService: 12 });
  });

  it('leaves a value with no property words near it unbound', () => {
    expect(bind('It was 12.', schema({ years_of_service: { type: 'number' } })).inputs).toEqual({});
  });

  it('binds only within the clause of the value', () => {
    const s = schema({ weight_kg: { type: 'number' } });
    expect(bind('What is the weight limit; the answer is 72?', s).inputs).toEqual({});
  });
});

describe('bindInputs: nearest wins, one to one', () => {
  const s = schema({
    loan_amount: { type: 'number', title: 'Loan amount (USD)' },
    property_value: { type: 'number', title: 'Property value (USD)', 'x-aliases': ['home value', 'home'] },
  });

  it('pairs each value with the nearest property words', () => {
    expect(bind('a $400,000 loan on a $500,000 home', s).inputs).toEqual({ loan_amount: 400000, property_value: 500000 });
    expect(bind('home value $500,000, loan amount $400,000', s).inputs).toEqual({ loan_amount: 400000, property_value: 500000 });
  });

  it('binds each value to at most one property and each property to at most one value', () => {
    const r = bind('the loan amount is $400,000, of which $50,000 is fees', s);
    expect(r.inputs).toEqual({ loan_amount: 400000 });
  });

  it('leaves a property two values fit equally unbound', () => {
    expect(bind('a loan of $400,000 and another loan of $50,000', s).inputs).toEqual({});
  });

  it('leaves an ambiguous value unbound', () => {
    const twins = schema({ amount_a: { type: 'number', title: 'Amount A' }, amount_b: { type: 'number', title: 'Amount B' } });
    expect(bind('the amount is 500', twins).inputs).toEqual({});
  });

  it('does not take a number that is part of a property name', () => {
    const fmla = schema({
      hours_last_12_months: { type: 'number', title: 'Hours worked in the last 12 months' },
      months_of_service: { type: 'number' },
      employees_within_75_miles: { type: 'integer' },
    });
    expect(bind('She worked 1,300 hours in the last 12 months; 60 employees within 75 miles.', fmla).inputs).toEqual({
      hours_last_12_months: 1300,
      employees_within_75_miles: 60,
    });
    expect(bind('She has worked 12 months.', fmla).inputs).toEqual({ months_of_service: 12 });
  });
});

describe('bindInputs: types and units', () => {
  it('converts durations to the unit the property is in', () => {
    const s = schema({
      years_of_service: { type: 'number' },
      notice_hours: { type: 'number', title: 'Hours of notice' },
      leave: { type: 'integer', title: 'Leave (days)' },
    });
    expect(bind('18 months of service', s).inputs).toEqual({ years_of_service: 1.5 });
    expect(bind("three days' notice", s).inputs).toEqual({ notice_hours: 72 });
    expect(bind('6 weeks of leave', s).inputs).toEqual({ leave: 42 });
  });

  it('refuses a duration for a property with no time unit', () => {
    expect(bind('12 years of claims', schema({ claims: { type: 'integer' } })).inputs).toEqual({});
  });

  it('refuses a fractional value for an integer property', () => {
    const s = schema({ employees: { type: 'integer' }, claims: { type: 'integer' } });
    const r = bind('12.5 employees and 3 claims', s);
    expect(r.inputs).toEqual({ claims: 3 });
    expect(bind('3 months to report', schema({ days_to_report: { type: 'integer' } })).inputs).toEqual({});
  });

  it('binds percentages as fractions for ratio and fraction properties, as written otherwise', () => {
    const s = schema({
      dti_ratio: { type: 'number', title: 'Debt-to-income ratio' },
      coinsurance_pct: { type: 'number', description: 'As a fraction, e.g. 0.8 for an 80% clause.' },
      fees_pct: { type: 'number', title: 'Fees (% of loan amount)' },
      rate: { type: 'number', title: 'Interest rate' },
    });
    expect(bind('a debt-to-income ratio of 45%', s).inputs).toEqual({ dti_ratio: 0.45 });
    expect(bind('an 80% coinsurance clause', s).inputs).toEqual({ coinsurance_pct: 0.8 });
    expect(bind('fees of 2.5%', s).inputs).toEqual({ fees_pct: 2.5 });
    expect(bind('an interest rate of 6.5 percent', s).inputs).toEqual({ rate: 6.5 });
  });

  it('binds money as its amount', () => {
    const r = bind('a salary of €52,000', schema({ salary: { type: 'number' } }));
    expect(r.bindings).toEqual([{ name: 'salary', value: 52000, kind: 'money', clause: 0, raw: '€52,000' }]);
  });

  it('binds dates as ISO strings to date properties only', () => {
    const s = schema({
      hire_date: { type: 'string', format: 'date' },
      end_date: { type: 'string', title: 'End date' },
      year: { type: 'integer' },
    });
    expect(bind('hired on March 3, 2026 with an end date of 3 June 2026', s).inputs).toEqual({ hire_date: '2026-03-03', end_date: '2026-06-03' });
  });

  it('binds a lone duration, date or amount to the one property of its sort', () => {
    expect(bind('She has been with us for eighteen months.', schema({ tenure_years: { type: 'number', title: 'Tenure (years)' } })).inputs).toEqual({ tenure_years: 1.5 });
    expect(bind('It happened on 2026-01-15.', schema({ incident_date: { type: 'string', format: 'date' } })).inputs).toEqual({ incident_date: '2026-01-15' });
  });

  it('binds "no <property>" as zero', () => {
    const s = schema({ prior_claims: { type: 'integer' }, withholding: { type: 'number', 'x-aliases': ['tax withheld'] } });
    expect(bind('no prior claims and no tax withheld', s).inputs).toEqual({ prior_claims: 0, withholding: 0 });
  });
});

describe('bindInputs: booleans', () => {
  const s = schema({
    temporary_worker: { type: 'boolean' },
    prior_claims: { type: 'boolean', title: 'Has prior claims' },
    consent: { type: 'boolean' },
    signed_waiver: { type: 'boolean', title: 'Signed the waiver' },
    income_verified: { type: 'boolean' },
    exempt: { type: 'boolean', 'x-aliases': ['exempt customer'] },
  });

  it.each([
    ['She is a temporary worker.', { temporary_worker: true }],
    ['She is not a temporary worker.', { temporary_worker: false }],
    ['The driver has no prior claims.', { prior_claims: false }],
    ['Processing without consent.', { consent: false }],
    ["The tenant didn't sign the waiver.", { signed_waiver: false }],
    ['Income was not verified.', { income_verified: false }],
    ['The income is unverified.', { income_verified: false }],
    ['A non-exempt customer.', { exempt: false }],
    ['Exempt customer: yes', { exempt: true }],
  ] as const)('%s', (query, expected) => {
    expect(bind(query, s).inputs).toEqual(expected);
  });

  it('a negation reaches no further than its phrase', () => {
    expect(bind('She is not a temporary worker and gave consent.', s).inputs).toEqual({ temporary_worker: false, consent: true });
  });

  it('needs the whole phrase, not one shared word', () => {
    const consent = schema({ guardian_consent: { type: 'boolean' }, consent_withdrawn: { type: 'boolean' } });
    expect(bind('The patient withdrew consent.', consent).inputs).toEqual({ consent_withdrawn: true });
  });
});

describe('bindInputs: enums', () => {
  const loss = schema({ loss_type: { type: 'string', enum: ['theft', 'fire', 'sudden_water_discharge', 'other'] } });
  const filing = schema({ filing_status: { type: 'string', enum: ['single', 'married_joint', 'married_separate'] } });
  const separation = schema({
    separation: {
      type: 'string',
      enum: ['discharge', 'resignation'],
      'x-enum-aliases': { discharge: ['fired', 'let go'], resignation: ['quit'] },
    },
  });
  const employment = schema({ employment_type: { type: 'string', enum: ['regular', 'temporary'] } });

  it.each([
    ['a theft claim', loss, { loss_type: 'theft' }],
    ['a sudden water discharge from a pipe', loss, { loss_type: 'sudden_water_discharge' }],
    ['a theft, not a fire', loss, { loss_type: 'theft' }],
    ['married filing jointly', filing, { filing_status: 'married_joint' }],
    ['she resigned', separation, { separation: 'resignation' }],
    ['he was fired', separation, { separation: 'discharge' }],
    ['they let him go last week', separation, { separation: 'discharge' }],
    ['he is not a temporary employee', employment, { employment_type: 'regular' }],
  ] as const)('%s', (query, s, expected) => {
    expect(bind(query, s).inputs).toEqual(expected);
  });

  it('reads a negated value as the other of two only next to the property words', () => {
    expect(bind('the house was not on fire', separation).inputs).toEqual({});
  });

  it('leaves two equally named values unbound', () => {
    expect(bind('was it theft or fire?', loss).inputs).toEqual({});
  });

  it('binds a generic value ("other") only next to the property words', () => {
    expect(bind('any other questions?', loss).inputs).toEqual({});
    expect(bind('the loss type is other', loss).inputs).toEqual({ loss_type: 'other' });
  });

  it('knows female/male by their common words', () => {
    expect(bind('a 70-year-old woman', schema({ sex: { type: 'string', enum: ['female', 'male'] } })).inputs).toEqual({ sex: 'female' });
  });
});

describe('bindInputs: free text', () => {
  const s = schema({
    payee: { type: 'string', 'x-aliases': ['vendor'] },
    medication: { type: 'string' },
    employee_state: { type: 'string', title: 'State where the employee works (USPS code)' },
  });

  it('binds quoted text after the property words', () => {
    expect(bind('Our vendor "Acme, Inc." sent an invoice', s).inputs).toEqual({ payee: 'Acme, Inc.' });
    expect(bind("the payee is 'Globex'", s).inputs).toEqual({ payee: 'Globex' });
  });

  it('leaves unquoted text unbound', () => {
    expect(bind('Can I prescribe metformin?', s).inputs).toEqual({});
  });

  it('binds the jurisdiction to a state property', () => {
    expect(bind('an employee in Texas', s).inputs).toEqual({ employee_state: 'TX' });
    expect(bind('an employee in Germany', s).inputs).toEqual({});
  });
});

describe('bindInputs: results', () => {
  const s = schema({ years_of_service: { type: 'number' }, fte: { type: 'number' } }, ['years_of_service', 'fte']);

  it('lists the required inputs left unbound', () => {
    expect(bind('12 years of service', s).missing).toEqual(['fte']);
  });

  it('binds nothing from a query with nothing to bind', () => {
    expect(bind('How does vacation work?', s)).toEqual({ inputs: {}, bindings: [], missing: ['years_of_service', 'fte'] });
    expect(bindInputs(parseQuery('anything at all'), {})).toEqual({ inputs: {}, bindings: [], missing: [] });
  });

  it('gives the same result for a parsed query that went through JSON (a resumed session)', () => {
    const parsed = parseQuery('An employee with 12 years of service at 0.8 FTE');
    const revived = JSON.parse(JSON.stringify(parsed)) as typeof parsed;
    expect(bindInputs(revived, s)).toEqual(bindInputs(parsed, s));
    expect(bindInputs(parsed, s).inputs).toEqual({ years_of_service: 12, fte: 0.8 });
  });

  it('gives the same result for a schema passed as a fresh object each time', () => {
    const parsed = parseQuery('12 years of service');
    expect(bindInputs(parsed, structuredClone(s))).toEqual(bindInputs(parsed, structuredClone(s)));
  });
});
