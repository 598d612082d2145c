import type { DomainTemplate } from './index.js';

/** Legal practice: data protection, contracts, restrictive covenants, limitation periods and litigation holds. */
export const legal: DomainTemplate = {
  id: 'legal',
  name: 'Legal',
  description:
    'Legal analysis and procedure: lawful basis for processing personal data, contract enforceability, ' +
    'non-compete reasonableness, limitation periods, statutory notice periods and litigation holds. Legal work spans ' +
    'jurisdictions, so the domain has no default and each unit names its own (EU, DE, US, US-CA). Rules are illustrative summaries of the law as examples of ' +
    'policy; confirm them against current authority. Not legal advice.',
  jurisdiction: null,
  units: [
    {
      name: 'GDPR lawful basis for processing',
      unitType: 'argument',
      jurisdiction: 'EU',
      description:
        'Whether processing personal data for a purpose is lawful under GDPR Art. 6(1): a lawful basis exists, the ' +
        'purpose is specified, explicit and legitimate (Art. 5(1)(b)), and the data is limited to what is necessary ' +
        '(Art. 5(1)(c)). Defeated by special-category data without an Art. 9(2) condition, by legitimate interests ' +
        'that fail the balancing test, or by consent that is not freely given (e.g. bundled with a service, Art. 7(4)). ' +
        'Example analysis. Not legal advice.',
      given: 'A controller processing personal data for {{purpose}}',
      when: 'The lawfulness of the processing is assessed',
      then: 'Record the lawful basis ({{lawful_basis}}) for {{purpose}} in the record of processing activities (Art. 30).',
      inputSchema: {
        type: 'object',
        properties: {
          purpose: { type: 'string', title: 'Purpose of processing', 'x-aliases': ['processing purpose', 'use of data'] },
          lawful_basis: {
            type: 'string',
            title: 'Lawful basis claimed (Art. 6(1))',
            enum: ['consent', 'contract', 'legal_obligation', 'vital_interests', 'public_task', 'legitimate_interests', 'none'],
            'x-aliases': ['legal basis', 'basis for processing', 'article 6 basis'],
          },
          purpose_specified: {
            type: 'boolean',
            title: 'Purpose specified, explicit and legitimate',
            'x-aliases': ['purpose limitation', 'specified purpose'],
          },
          data_minimised: { type: 'boolean', title: 'Data limited to what is necessary', 'x-aliases': ['data minimisation', 'data minimization'] },
          special_category: {
            type: 'boolean',
            title: 'Includes special-category data (Art. 9)',
            description: 'Health, biometric, genetic, racial or ethnic origin, political opinions, religion, trade-union membership, sex life or orientation.',
            'x-aliases': ['sensitive data', 'health data', 'article 9 data'],
          },
          article9_condition: {
            type: 'boolean',
            title: 'An Art. 9(2) condition applies',
            'x-aliases': ['explicit consent', 'article 9 exception'],
          },
          balancing_test_passed: {
            type: 'boolean',
            title: 'Legitimate-interests balancing test passed',
            description: 'Only relevant for legitimate interests; the data subject\'s interests do not override the controller\'s.',
            'x-aliases': ['LIA', 'legitimate interests assessment', 'balancing test'],
          },
          consent_bundled: {
            type: 'boolean',
            title: 'Consent is a condition of the service',
            description: 'Only relevant for consent: the service is refused without consent to processing it does not need.',
            'x-aliases': ['forced consent', 'bundled consent'],
          },
        },
        required: [
          'purpose', 'lawful_basis', 'purpose_specified', 'data_minimised', 'special_category', 'article9_condition',
          'balancing_test_passed', 'consent_bundled',
        ],
      },
      outputSchema: {
        type: 'object',
        properties: {
          stands: { type: 'boolean', title: 'Processing is lawful', 'x-aliases': ['lawful', 'GDPR compliant'] },
          defeatedBy: { type: 'string', title: 'Defeating defect' },
        },
      },
      definition: {
        elements: [
          { id: 'basis', kind: 'premise', text: 'A lawful basis under Art. 6(1) is claimed: {{lawful_basis}}.', when: 'lawful_basis != "none"' },
          { id: 'purpose_limitation', kind: 'premise', text: 'The purpose is specified, explicit and legitimate.', when: 'purpose_specified' },
          { id: 'minimisation', kind: 'premise', text: 'Only the data necessary for the purpose is processed.', when: 'data_minimised' },
          {
            id: 'special_category',
            kind: 'rebuttal',
            text: 'Special-category data is processed without an Art. 9(2) condition.',
            when: 'special_category && !article9_condition',
          },
          {
            id: 'balancing',
            kind: 'rebuttal',
            text: 'Legitimate interests are overridden by the data subjects\' interests or fundamental rights (Art. 6(1)(f)).',
            when: 'lawful_basis == "legitimate_interests" && !balancing_test_passed',
          },
          {
            id: 'consent_not_free',
            kind: 'rebuttal',
            text: 'Consent is not freely given: it is bundled as a condition of a service that does not need the data (Art. 7(4)).',
            when: 'lawful_basis == "consent" && consent_bundled',
          },
          { id: 'lawful', kind: 'conclusion', text: 'Processing for {{purpose}} is lawful on the basis of {{lawful_basis}}.' },
        ],
      },
      examples: [
        {
          name: 'contract basis for order fulfilment',
          inputs: {
            purpose: 'order fulfilment', lawful_basis: 'contract', purpose_specified: true, data_minimised: true,
            special_category: false, article9_condition: false, balancing_test_passed: false, consent_bundled: false,
          },
          expected: {
            stands: true,
            defeatedBy: null,
            texts: [
              'Processing for order fulfilment is lawful on the basis of contract.',
              'Record the lawful basis (contract) for order fulfilment in the record of processing activities (Art. 30).',
            ],
          },
        },
        {
          name: 'legitimate interests failing the balancing test',
          inputs: {
            purpose: 'employee location tracking', lawful_basis: 'legitimate_interests', purpose_specified: true, data_minimised: true,
            special_category: false, article9_condition: false, balancing_test_passed: false, consent_bundled: false,
          },
          expected: { stands: false, defeatedBy: 'balancing' },
        },
        {
          name: 'health data with explicit consent',
          inputs: {
            purpose: 'clinical trial', lawful_basis: 'consent', purpose_specified: true, data_minimised: true,
            special_category: true, article9_condition: true, balancing_test_passed: false, consent_bundled: false,
          },
          expected: { stands: true },
        },
        {
          name: 'no lawful basis',
          inputs: {
            purpose: 'selling contact lists', lawful_basis: 'none', purpose_specified: true, data_minimised: false,
            special_category: false, article9_condition: false, balancing_test_passed: false, consent_bundled: false,
          },
          expected: { stands: false, defeatedBy: null, texts: [] },
        },
      ],
    },
    {
      name: 'Statute of frauds: writing requirement',
      unitType: 'pattern',
      jurisdiction: 'US',
      description:
        'A contract within the statute of frauds is unenforceable without a writing signed by the party to be charged: ' +
        'interests in land, agreements that cannot be performed within one year, and sales of goods for $500 or more ' +
        '(UCC 2-201). Exceptions (part performance, admission, specially manufactured goods, goods accepted or paid ' +
        'for) need separate analysis. Example of general US contract law. Not legal advice.',
      given: 'An alleged contract of type {{contract_type}}',
      when: 'Its enforceability against a party who did not sign a writing is assessed',
      then: 'Before suing, check whether part performance, an admission or a UCC 2-201(3) exception applies.',
      inputSchema: {
        type: 'object',
        properties: {
          contract_type: {
            type: 'string',
            title: 'Subject of the contract',
            enum: ['land', 'sale_of_goods', 'services', 'suretyship', 'other'],
            'x-aliases': ['contract subject', 'type of contract'],
          },
          price: { type: 'number', title: 'Price (USD)', 'x-aliases': ['contract price', 'amount', 'value'] },
          performable_within_one_year: {
            type: 'boolean',
            title: 'Could be fully performed within one year',
            'x-aliases': ['one-year rule', 'performance within a year'],
          },
          signed_writing: {
            type: 'boolean',
            title: 'Signed writing by the party to be charged',
            'x-aliases': ['written contract', 'signed', 'in writing'],
          },
        },
        required: ['contract_type', 'price', 'performable_within_one_year', 'signed_writing'],
      },
      outputSchema: { type: 'object', properties: { fires: { type: 'boolean', title: 'Unenforceable for want of a writing' } } },
      definition: {
        elements: [
          {
            id: 'within_statute',
            kind: 'condition',
            when: 'contract_type in ["land", "suretyship"] || !performable_within_one_year || (contract_type == "sale_of_goods" && price >= 500)',
          },
          { id: 'no_writing', kind: 'condition', when: '!signed_writing' },
          {
            id: 'unenforceable',
            kind: 'conclusion',
            text: 'The contract falls within the statute of frauds and is unenforceable against a party who signed no writing.',
          },
        ],
      },
      examples: [
        {
          name: 'oral sale of goods at exactly 500',
          inputs: { contract_type: 'sale_of_goods', price: 500, performable_within_one_year: true, signed_writing: false },
          expected: {
            fires: true,
            texts: [
              'The contract falls within the statute of frauds and is unenforceable against a party who signed no writing.',
              'Before suing, check whether part performance, an admission or a UCC 2-201(3) exception applies.',
            ],
          },
        },
        {
          name: 'oral sale of goods at 499.99',
          inputs: { contract_type: 'sale_of_goods', price: 499.99, performable_within_one_year: true, signed_writing: false },
          expected: { fires: false, texts: [] },
        },
        {
          name: 'three-year services contract, unsigned',
          inputs: { contract_type: 'services', price: 90000, performable_within_one_year: false, signed_writing: false },
          expected: { fires: true },
        },
        {
          name: 'land sale with a signed writing',
          inputs: { contract_type: 'land', price: 350000, performable_within_one_year: true, signed_writing: true },
          expected: { fires: false },
        },
      ],
    },
    {
      name: 'Non-compete enforceability screen',
      unitType: 'framework',
      jurisdiction: 'US',
      description:
        'A reasonableness screen for an employee non-compete in a US state that enforces them: a protectable business ' +
        'interest, reasonable duration and geography, consideration, and the employee\'s pay. California voids ' +
        'employee non-competes (Bus. & Prof. Code 16600), so a California employee fails the screen outright. Weights ' +
        'are an example of counsel\'s risk policy; state law varies widely (e.g. salary floors in WA, IL, CO). Not legal advice.',
      given: 'A proposed post-employment non-compete covenant',
      when: 'Counsel screens it for enforceability risk',
      then: 'Enforceability screen: {{score}} of 10 (needs {{threshold}}).',
      inputSchema: {
        type: 'object',
        properties: {
          protectable_interest: {
            type: 'boolean',
            title: 'Protects trade secrets, confidential information or customer goodwill',
            'x-aliases': ['legitimate business interest', 'trade secrets'],
          },
          duration_months: { type: 'integer', title: 'Restricted period (months)', 'x-aliases': ['duration', 'term', 'restricted period'] },
          geography_limited: {
            type: 'boolean',
            title: 'Geography limited to where the employee worked or had customers',
            'x-aliases': ['geographic scope', 'territory'],
          },
          consideration_given: {
            type: 'boolean',
            title: 'Supported by consideration',
            description: 'A new hire, a promotion, or a payment beyond continued employment where state law requires it.',
            'x-aliases': ['consideration'],
          },
          annual_earnings: { type: 'number', title: 'Employee annual earnings (USD)', 'x-aliases': ['salary', 'pay', 'compensation'] },
          employee_state: { type: 'string', title: 'State where the employee works (USPS code)', 'x-aliases': ['state', 'work state'] },
        },
        required: ['protectable_interest', 'duration_months', 'geography_limited', 'consideration_given', 'annual_earnings', 'employee_state'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          score: { type: 'number', title: 'Enforceability score' },
          passed: { type: 'boolean', title: 'Likely enforceable', 'x-aliases': ['enforceable'] },
          outcome: { type: 'string', enum: ['pass', 'fail'] },
        },
      },
      definition: {
        elements: [
          { id: 'interest', label: 'Protects a legitimate business interest', weight: 3, when: 'protectable_interest' },
          { id: 'duration', label: 'Restricted period of 12 months or less', weight: 2, when: 'duration_months <= 12' },
          { id: 'geography', label: 'Reasonable geographic scope', weight: 2, when: 'geography_limited' },
          { id: 'consideration', label: 'Adequate consideration', weight: 2, when: 'consideration_given' },
          { id: 'earnings', label: 'Employee earns at least $100,000 a year', weight: 1, when: 'annual_earnings >= 100000' },
          { id: 'california', label: 'Employee works in California, where non-competes are void', weight: -10, when: 'employee_state == "CA"' },
        ],
        threshold: 8,
        outcomes: {
          pass: 'Likely enforceable as drafted (score {{score}}); confirm state-specific notice and pay requirements.',
          fail: 'High risk of unenforceability (score {{score}}); narrow the covenant or rely on confidentiality and non-solicitation terms.',
        },
      },
      examples: [
        {
          name: 'narrow covenant for a senior employee',
          inputs: {
            protectable_interest: true, duration_months: 12, geography_limited: true, consideration_given: true,
            annual_earnings: 150000, employee_state: 'TX',
          },
          expected: { score: 10, passed: true, outcome: 'pass' },
        },
        {
          name: 'exactly at the threshold with a 13-month term',
          inputs: {
            protectable_interest: true, duration_months: 13, geography_limited: true, consideration_given: true,
            annual_earnings: 100000, employee_state: 'NY',
          },
          expected: {
            score: 8,
            passed: true,
            texts: [
              'Likely enforceable as drafted (score 8); confirm state-specific notice and pay requirements.',
              'Enforceability screen: 8 of 10 (needs 8).',
            ],
          },
        },
        {
          name: 'a strong covenant still fails for a California employee',
          inputs: {
            protectable_interest: true, duration_months: 6, geography_limited: true, consideration_given: true,
            annual_earnings: 250000, employee_state: 'CA',
          },
          expected: { score: 0, passed: false },
        },
        {
          name: 'no protectable interest',
          inputs: {
            protectable_interest: false, duration_months: 24, geography_limited: false, consideration_given: true,
            annual_earnings: 45000, employee_state: 'FL',
          },
          expected: { score: 2, outcome: 'fail' },
        },
      ],
    },
    {
      name: 'Breach of contract limitation period (California)',
      unitType: 'program',
      jurisdiction: 'US-CA',
      description:
        'Whether a breach-of-contract claim is time-barred in California: four years for a written contract (Code ' +
        'Civ. Proc. 337) and two years for an oral one (339), from the breach, plus any tolling (e.g. the defendant\'s ' +
        'absence from the state, or a tolling agreement). Example of state policy; discovery rules and contractual ' +
        'limitation clauses can change the result. Not legal advice.',
      given: 'A breach of a {{contract_form}} contract {{years_since_breach}} years ago',
      when: 'Counsel checks whether a claim can still be filed',
      then: 'Limitation period: {{limitation_years}} years plus {{tolling_years}} tolled; years left to file: {{years_remaining}} (time-barred: {{time_barred}}).',
      inputSchema: {
        type: 'object',
        properties: {
          contract_form: { type: 'string', title: 'Form of the contract', enum: ['written', 'oral'], 'x-aliases': ['written or oral', 'contract form'] },
          years_since_breach: {
            type: 'number',
            title: 'Years since the breach',
            'x-aliases': ['time since breach', 'age of claim', 'years elapsed'],
          },
          tolling_years: { type: 'number', title: 'Years tolled', description: '0 when no tolling applies.', 'x-aliases': ['tolling', 'tolled time'] },
        },
        required: ['contract_form', 'years_since_breach', 'tolling_years'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          limitation_years: { type: 'integer', title: 'Statutory limitation period (years)', 'x-aliases': ['statute of limitations', 'limitation period'] },
          time_barred: { type: 'boolean', title: 'Claim is time-barred', 'x-aliases': ['expired', 'out of time'] },
          years_remaining: { type: 'number', title: 'Years left to file' },
        },
        required: ['limitation_years', 'time_barred', 'years_remaining'],
      },
      definition: {
        steps: [
          { id: 'written', set: 'limitation_years', expr: '4' },
          { id: 'oral', if: 'contract_form == "oral"', set: 'limitation_years', expr: '2' },
          { id: 'deadline', set: 'deadline_years', expr: 'limitation_years + tolling_years' },
          { id: 'barred', set: 'time_barred', expr: 'years_since_breach > deadline_years' },
          { id: 'remaining', set: 'years_remaining', expr: 'time_barred ? 0.0 : deadline_years - years_since_breach' },
        ],
      },
      examples: [
        {
          name: 'written contract on the fourth anniversary is still timely',
          inputs: { contract_form: 'written', years_since_breach: 4, tolling_years: 0 },
          expected: {
            limitation_years: 4,
            time_barred: false,
            years_remaining: 0,
            texts: ['Limitation period: 4 years plus 0 tolled; years left to file: 0 (time-barred: false).'],
          },
        },
        {
          name: 'oral contract after two and a half years',
          inputs: { contract_form: 'oral', years_since_breach: 2.5, tolling_years: 0 },
          expected: { limitation_years: 2, time_barred: true, years_remaining: 0 },
        },
        {
          name: 'tolling keeps an oral claim alive',
          inputs: { contract_form: 'oral', years_since_breach: 2.5, tolling_years: 1 },
          expected: { time_barred: false, years_remaining: 0.5 },
        },
      ],
    },
    {
      name: 'Statutory notice period for employer dismissal (Germany)',
      unitType: 'program',
      jurisdiction: 'DE',
      description:
        'The minimum notice an employer must give under § 622 BGB: two weeks during an agreed probation period of up ' +
        'to six months; otherwise four weeks to the 15th or the end of a calendar month, rising with length of service ' +
        'to 1 month after 2 years, 2 after 5, 3 after 8, 4 after 10, 5 after 12, 6 after 15 and 7 after 20 years, each ' +
        'to the end of a calendar month. Service before age 25 counts (the exclusion in § 622(2) sentence 2 is not ' +
        'applied since CJEU Kücükdeveci, C-555/07). Collective agreements may differ. Example of statutory policy. Not legal advice.',
      given: 'An employee with {{years_of_service}} years of service',
      when: 'The employer gives ordinary notice of termination',
      then: 'Minimum notice: {{notice_period}}.',
      inputSchema: {
        type: 'object',
        properties: {
          years_of_service: {
            type: 'number',
            title: 'Years of service',
            'x-aliases': ['tenure', 'service years', 'Betriebszugehörigkeit', 'length of employment'],
          },
          in_probation: {
            type: 'boolean',
            title: 'Within an agreed probation period (max. 6 months)',
            'x-aliases': ['probation', 'Probezeit'],
          },
        },
        required: ['years_of_service', 'in_probation'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          notice_months: { type: 'integer', title: 'Notice in months (0 when counted in weeks)', 'x-aliases': ['months of notice'] },
          notice_period: { type: 'string', title: 'Notice period', 'x-aliases': ['notice', 'Kündigungsfrist'] },
        },
        required: ['notice_months', 'notice_period'],
      },
      definition: {
        steps: [
          { id: 'base', set: 'notice_months', expr: '0' },
          { id: 'y2', if: 'years_of_service >= 2', set: 'notice_months', expr: '1' },
          { id: 'y5', if: 'years_of_service >= 5', set: 'notice_months', expr: '2' },
          { id: 'y8', if: 'years_of_service >= 8', set: 'notice_months', expr: '3' },
          { id: 'y10', if: 'years_of_service >= 10', set: 'notice_months', expr: '4' },
          { id: 'y12', if: 'years_of_service >= 12', set: 'notice_months', expr: '5' },
          { id: 'y15', if: 'years_of_service >= 15', set: 'notice_months', expr: '6' },
          { id: 'y20', if: 'years_of_service >= 20', set: 'notice_months', expr: '7' },
          { id: 'text_basic', set: 'notice_period', expr: '"four weeks to the 15th or the end of a calendar month"' },
          {
            id: 'text_months',
            if: 'notice_months > 0',
            set: 'notice_period',
            expr: 'string(notice_months) + (notice_months == 1 ? " month" : " months") + " to the end of a calendar month"',
          },
          { id: 'probation_months', if: 'in_probation', set: 'notice_months', expr: '0', exception: true },
          { id: 'probation_text', if: 'in_probation', set: 'notice_period', expr: '"two weeks (probation period)"', exception: true },
        ],
      },
      examples: [
        { name: 'probation', inputs: { years_of_service: 0.3, in_probation: true }, expected: { notice_months: 0, notice_period: 'two weeks (probation period)' } },
        {
          name: 'just under two years',
          inputs: { years_of_service: 1.99, in_probation: false },
          expected: { notice_months: 0, notice_period: 'four weeks to the 15th or the end of a calendar month' },
        },
        {
          name: 'exactly two years',
          inputs: { years_of_service: 2, in_probation: false },
          expected: { notice_months: 1, texts: ['Minimum notice: 1 month to the end of a calendar month.'] },
        },
        { name: 'twenty years', inputs: { years_of_service: 20, in_probation: false }, expected: { notice_months: 7, notice_period: '7 months to the end of a calendar month' } },
      ],
    },
    {
      name: 'Litigation hold',
      unitType: 'protocol',
      jurisdiction: 'US',
      description:
        'Preserving evidence once litigation is reasonably anticipated: decide the trigger, issue hold notices, ' +
        'suspend automatic deletion, track acknowledgements and escalate non-responders. Failure to preserve ' +
        'electronically stored information risks sanctions (FRCP 37(e)). Example procedure. Not legal advice.',
      given: 'A potential dispute: {{matter}}',
      when: 'Legal decides whether to preserve evidence',
      then: 'Update the hold register for {{matter}} (anticipated: {{litigation_anticipated}}).',
      inputSchema: {
        type: 'object',
        properties: {
          matter: { type: 'string', title: 'Matter', 'x-aliases': ['case', 'dispute', 'claim'] },
          custodian_count: { type: 'integer', title: 'Number of custodians', minimum: 0, 'x-aliases': ['custodians', 'key employees'] },
        },
        required: ['matter', 'custodian_count'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          litigation_anticipated: { type: 'string', title: 'Litigation reasonably anticipated', enum: ['yes', 'no'] },
          all_acknowledged: { type: 'string', title: 'All custodians acknowledged', enum: ['yes', 'no'] },
        },
      },
      definition: {
        steps: [
          {
            id: 'trigger',
            gate: {
              name: 'litigation_anticipated',
              question: 'Is litigation about {{matter}} reasonably anticipated (a demand letter, a claim, a credible threat or a government inquiry)?',
              options: ['yes', 'no'],
            },
          },
          { id: 'no_hold', if: 'litigation_anticipated == "no"', text: 'Document why no hold is needed and revisit if the facts change.' },
          {
            id: 'notice',
            if: 'litigation_anticipated == "yes"',
            text: 'Send hold notices to the {{custodian_count}} custodians describing the subject matter, the date range and the data types to preserve.',
          },
          {
            id: 'it_suspend',
            if: 'litigation_anticipated == "yes"',
            text: 'Ask IT to suspend automatic deletion for the custodians\' mailboxes, chat, shared drives and devices.',
          },
          {
            id: 'ack',
            if: 'litigation_anticipated == "yes"',
            gate: {
              name: 'all_acknowledged',
              question: 'Have all {{custodian_count}} custodians acknowledged the hold in writing?',
              options: ['yes', 'no'],
            },
          },
          {
            id: 'escalate',
            if: 'all_acknowledged == "no"',
            text: 'Escalate the custodians who have not acknowledged to their managers and re-send the notice within 5 business days.',
          },
          {
            id: 'reminders',
            if: 'litigation_anticipated == "yes"',
            text: 'Re-issue reminders quarterly, and release the hold only after the matter and any appeals conclude.',
          },
        ],
      },
      examples: [
        { name: 'pauses on the trigger question', inputs: { matter: 'Acme v. Initech', custodian_count: 8 }, expected: { status: 'paused', texts: [] } },
        {
          name: 'no hold needed',
          inputs: { matter: 'vendor complaint', custodian_count: 2, litigation_anticipated: 'no' },
          expected: {
            status: 'completed',
            texts: [
              'Document why no hold is needed and revisit if the facts change.',
              'Update the hold register for vendor complaint (anticipated: no).',
            ],
          },
        },
        {
          name: 'hold issued, then waits for acknowledgements',
          inputs: { matter: 'Acme v. Initech', custodian_count: 8, litigation_anticipated: 'yes' },
          expected: {
            status: 'paused',
            texts: [
              'Send hold notices to the 8 custodians describing the subject matter, the date range and the data types to preserve.',
              'Ask IT to suspend automatic deletion for the custodians\' mailboxes, chat, shared drives and devices.',
            ],
          },
        },
        {
          name: 'missing acknowledgements are escalated',
          inputs: { matter: 'Acme v. Initech', custodian_count: 8, litigation_anticipated: 'yes', all_acknowledged: 'no' },
          expected: {
            status: 'completed',
            all_acknowledged: 'no',
            texts: [
              'Send hold notices to the 8 custodians describing the subject matter, the date range and the data types to preserve.',
              'Ask IT to suspend automatic deletion for the custodians\' mailboxes, chat, shared drives and devices.',
              'Escalate the custodians who have not acknowledged to their managers and re-send the notice within 5 business days.',
              'Re-issue reminders quarterly, and release the hold only after the matter and any appeals conclude.',
              'Update the hold register for Acme v. Initech (anticipated: yes).',
            ],
          },
        },
      ],
    },
  ],
};
