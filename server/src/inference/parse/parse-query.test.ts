import { describe, expect, it } from 'vitest';
import { findJurisdictions, pickJurisdiction } from './jurisdiction.js';
import { parseQuery } from './parse-query.js';
import type { ExtractedValue } from './types.js';

/** The values of a query as [kind, value, unit or currency]. */
function values(query: string): Array<[ExtractedValue['kind'], number | string, string?]> {
  return parseQuery(query).values.map((v) => {
    const extra = v.unit ?? v.currency;
    return extra === undefined ? [v.kind, v.value] : [v.kind, v.value, extra];
  });
}

describe('parseQuery: numbers', () => {
  it.each([
    ['GCS 14', [['number', 14]]],
    ['1,250 people', [['number', 1250]]],
    ['a ratio of 1.25', [['number', 1.25]]],
    ['leverage 3.0x', [['number', 3]]],
    ['twelve people', [['number', 12]]],
    ['twenty-two breaths', [['number', 22]]],
    ['three hundred fifty thousand widgets', [['number', 350000]]],
    ['one hundred and twenty beds', [['number', 120]]],
    ['a dozen custodians', [['number', 12]]],
    ['1.2 million rows', [['number', 1200000]]],
    ['2 1/2 units', [['number', 2.5]]],
    ['half-time', [['number', 0.5]]],
    ['BP 95/60', [['number', 95]]],
  ] as const)('%s', (query, expected) => {
    expect(values(query)).toEqual(expected);
  });

  it('reads no number from pronouns, codes and quoted text', () => {
    expect(values('no one filed; the one on file')).toEqual([]);
    expect(values('File Form 1099-NEC for payee "Route 66 Diner"')).toEqual([]);
  });
});

describe('parseQuery: money', () => {
  it.each([
    ['$400,000', 400000, 'USD'],
    ['$400k', 400000, 'USD'],
    ['$300k.', 300000, 'USD'],
    ['$1.2M', 1200000, 'USD'],
    ['USD 5,000', 5000, 'USD'],
    ['650 dollars', 650, 'USD'],
    ['€3,000', 3000, 'EUR'],
    ['£500', 500, 'GBP'],
    ['15 thousand dollars', 15000, 'USD'],
    ['$10,000.01', 10000.01, 'USD'],
  ] as const)('%s', (query, amount, currency) => {
    expect(values(query)).toEqual([['money', amount, currency]]);
  });

  it('a rate is money, not a duration', () => {
    expect(values('$8,500 a month and $900 a week')).toEqual([
      ['money', 8500, 'USD'],
      ['money', 900, 'USD'],
    ]);
  });
});

describe('parseQuery: percentages', () => {
  it.each([
    ['45%', 45],
    ['45 percent', 45],
    ['forty-five percent', 45],
    ['80 per cent', 80],
    ['0.5%', 0.5],
    ['1.2 percentage points', 1.2],
  ] as const)('%s', (query, value) => {
    expect(values(query)).toEqual([['percent', value]]);
  });
});

describe('parseQuery: durations', () => {
  it.each([
    ['12 years', 12, 'years'],
    ['twelve years', 12, 'years'],
    ['an 18-month term', 18, 'months'],
    ['a 45-year-old', 45, 'years'],
    ["72 hours' notice", 72, 'hours'],
    ['two and a half years', 2.5, 'years'],
    ['a year and a half', 1.5, 'years'],
    ['half a year', 0.5, 'years'],
    ['1 year and 6 months', 18, 'months'],
    ['3 business days', 3, 'days'],
    ['six weeks', 6, 'weeks'],
  ] as const)('%s', (query, value, unit) => {
    expect(values(query)).toEqual([['duration', value, unit]]);
  });

  it('keeps a list of durations apart', () => {
    expect(values('10 months, 1,500 hours')).toEqual([
      ['duration', 10, 'months'],
      ['duration', 1500, 'hours'],
    ]);
  });
});

describe('parseQuery: dates', () => {
  it.each([
    ['on 2026-03-03', '2026-03-03'],
    ['on March 3, 2026', '2026-03-03'],
    ['on 3 March 2026', '2026-03-03'],
    ['the 3rd of March 2026', '2026-03-03'],
    ['dated 03/04/2026', '2026-03-04'],
  ] as const)('%s', (query, iso) => {
    expect(values(query)).toEqual([['date', iso]]);
  });

  it('reads only dates with a year, month and day, never relative ones', () => {
    expect(values('yesterday, last Friday, in 3 days, March 3')).toEqual([['duration', 3, 'days'], ['number', 3]]);
  });

  it('does not read a date as numbers, nor take a time with it', () => {
    const parsed = parseQuery('The breach happened on March 3, 2026 after 18 months of service');
    expect(parsed.values.map((v) => [v.kind, v.raw])).toEqual([
      ['date', 'March 3, 2026'],
      ['duration', '18 months'],
    ]);
  });
});

describe('parseQuery: offsets and clauses', () => {
  it('gives each value its raw text, offsets and clause', () => {
    const text = 'Loan of $400,000; is 45% too high?';
    const parsed = parseQuery(text);
    for (const v of parsed.values) expect(text.slice(v.start, v.end)).toBe(v.raw);
    expect(parsed.values.map((v) => v.clause)).toEqual([0, 1]);
  });

  it('splits sentences, semicolons and a second question', () => {
    const parsed = parseQuery(
      "What's the LTV on a $400,000 loan for a $500,000 home, and does an FHA loan need PMI? An employee is not a temporary worker: how much vacation?",
    );
    expect(parsed.clauses.map((c) => c.text)).toEqual([
      "What's the LTV on a $400,000 loan for a $500,000 home",
      'does an FHA loan need PMI?',
      'An employee is not a temporary worker',
      'how much vacation?',
    ]);
    for (const c of parsed.clauses) expect(parsed.text.slice(c.start, c.end)).toBe(c.text);
  });

  it('keeps a list and a continued predicate in one clause', () => {
    expect(parseQuery('GCS 14, RR 24 and she is not confused').clauses).toHaveLength(1);
  });

  it('returns nothing for an empty query', () => {
    expect(parseQuery('')).toEqual({ text: '', clauses: [], values: [], jurisdiction: null, keywords: [] });
  });
});

describe('parseQuery: keywords', () => {
  it('are lemmatised content words, deduplicated, in order', () => {
    expect(parseQuery('Employees with prior claims: do the employees need claims reviews?').keywords).toEqual([
      'employee', 'prior', 'claim', 'need', 'review',
    ]);
  });
});

describe('parseQuery: jurisdiction', () => {
  it.each([
    ['An employee in California resigned', 'US-CA'],
    ['in california', 'US-CA'],
    ['final pay in CA after a layoff', 'US-CA'],
    ['under NY law', 'US-NY'],
    ['region US-TX', 'US-TX'],
    ['an office in the UK', 'GB'],
    ['in the United Kingdom', 'GB'],
    ['users in the EU', 'EU'],
    ['an employer in Germany', 'DE'],
    ['German law applies', 'DE'],
    ['in New Mexico', 'US-NM'],
    ['in West Virginia', 'US-WV'],
    ['Washington, D.C. employers', 'US-DC'],
    ['in the US, specifically Texas', 'US-TX'],
    ['a VA loan in Texas', 'US-TX'],
  ] as const)('%s -> %s', (query, code) => {
    expect(parseQuery(query).jurisdiction).toBe(code);
  });

  it.each([
    ['a VA loan for 300k'],
    ['help us with this'],
    ['requester "Blue Shield of California"'],
    ['French fries and a Spanish-speaking patient'],
    ['ca. 40 hours'],
  ])('names none in %s', (query) => {
    expect(parseQuery(query).jurisdiction).toBeNull();
  });

  it('takes the first one named', () => {
    const mentions = findJurisdictions('from Texas to Ohio');
    expect(mentions.map((m) => m.code)).toEqual(['US-TX', 'US-OH']);
    expect(pickJurisdiction(mentions)?.code).toBe('US-TX');
  });
});
