import type { DomainTemplate } from './index.js';

/** Property and casualty claims: triage, coverage, settlement and handling. */
export const insurance: DomainTemplate = {
  id: 'insurance',
  name: 'Insurance',
  description:
    'Property and casualty claims handling: first notice of loss, coverage analysis, fraud triage, total-loss ' +
    'decisions and settlement arithmetic. Timelines and thresholds are examples of common US practice and NAIC ' +
    'model rules; states set their own. Not legal advice.',
  jurisdiction: 'US',
  units: [
    {
      name: 'Claim triage: special investigations referral',
      unitType: 'framework',
      description:
        'Scores fraud indicators at first notice of loss to decide whether a claim goes to the Special Investigations ' +
        'Unit: a recently incepted policy, a large claim, frequent prior claims, late reporting, a theft with no police ' +
        'report, and inconsistent statements. A red-flag score of 5 refers the claim; red flags are not proof of fraud. ' +
        'Weights are an example triage policy.',
      given: 'A newly reported claim',
      when: 'The claim is triaged for handling',
      then: 'Red-flag score {{score}} (referral at {{threshold}}).',
      inputSchema: {
        type: 'object',
        properties: {
          policy_age_days: {
            type: 'integer',
            title: 'Days from policy inception to the loss',
            minimum: 0,
            'x-aliases': ['policy age', 'days since inception', 'new policy'],
          },
          claim_amount: { type: 'number', title: 'Claimed amount (USD)', 'x-aliases': ['claim size', 'amount claimed', 'loss amount'] },
          prior_claims_3y: {
            type: 'integer',
            title: 'Claims in the last 3 years',
            minimum: 0,
            'x-aliases': ['prior claims', 'claim history', 'claim frequency'],
          },
          days_to_report: { type: 'integer', title: 'Days from loss to report', minimum: 0, 'x-aliases': ['reporting delay', 'late notice'] },
          loss_type: {
            type: 'string',
            title: 'Type of loss',
            enum: ['theft', 'fire', 'water', 'collision', 'liability', 'other'],
            'x-aliases': ['peril', 'cause of loss'],
          },
          police_report: { type: 'boolean', title: 'Police report filed', 'x-aliases': ['police report', 'crime report'] },
          inconsistent_statements: {
            type: 'boolean',
            title: 'Inconsistent statements or documents',
            'x-aliases': ['conflicting accounts', 'discrepancies'],
          },
        },
        required: ['policy_age_days', 'claim_amount', 'prior_claims_3y', 'days_to_report', 'loss_type', 'police_report', 'inconsistent_statements'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          score: { type: 'number', title: 'Red-flag score' },
          passed: { type: 'boolean', title: 'Refer to SIU', 'x-aliases': ['SIU referral', 'fraud referral'] },
          outcome: { type: 'string', enum: ['pass', 'fail'] },
        },
      },
      definition: {
        elements: [
          { id: 'new_policy', label: 'Loss within 60 days of policy inception', weight: 2, when: 'policy_age_days < 60' },
          { id: 'large_claim', label: 'Claim above $25,000', weight: 1, when: 'claim_amount > 25000' },
          { id: 'frequency', label: 'Three or more claims in 3 years', weight: 2, when: 'prior_claims_3y >= 3' },
          { id: 'late_report', label: 'Reported more than 30 days after the loss', weight: 1, when: 'days_to_report > 30' },
          { id: 'theft_no_report', label: 'Theft with no police report', weight: 2, when: 'loss_type == "theft" && !police_report' },
          { id: 'inconsistent', label: 'Inconsistent statements or documents', weight: 3, when: 'inconsistent_statements' },
        ],
        threshold: 5,
        outcomes: {
          pass: 'Refer to the Special Investigations Unit (score {{score}}); continue to acknowledge and handle the claim within regulatory deadlines.',
          fail: 'Standard handling (score {{score}}).',
        },
      },
      examples: [
        {
          name: 'clean claim',
          inputs: {
            policy_age_days: 900, claim_amount: 4200, prior_claims_3y: 0, days_to_report: 2,
            loss_type: 'water', police_report: false, inconsistent_statements: false,
          },
          expected: { score: 0, passed: false, texts: ['Standard handling (score 0).', 'Red-flag score 0 (referral at 5).'] },
        },
        {
          name: 'one point short of referral',
          inputs: {
            policy_age_days: 59, claim_amount: 25000.01, prior_claims_3y: 0, days_to_report: 31,
            loss_type: 'theft', police_report: true, inconsistent_statements: false,
          },
          expected: { score: 4, passed: false },
        },
        {
          name: 'exactly at the threshold: new policy, large theft without a police report',
          inputs: {
            policy_age_days: 20, claim_amount: 30000, prior_claims_3y: 1, days_to_report: 3,
            loss_type: 'theft', police_report: false, inconsistent_statements: false,
          },
          expected: { score: 5, passed: true, outcome: 'pass' },
        },
        {
          name: 'boundaries not crossed',
          inputs: {
            policy_age_days: 60, claim_amount: 25000, prior_claims_3y: 2, days_to_report: 30,
            loss_type: 'fire', police_report: false, inconsistent_statements: true,
          },
          expected: { score: 3, outcome: 'fail' },
        },
      ],
    },
    {
      name: 'Property claim payout with coinsurance',
      unitType: 'program',
      description:
        'Settles a property loss under a coinsurance clause: when the limit carried is below the required percentage ' +
        'of replacement cost, the payout is reduced in proportion ("did / should x loss - deductible"), and it never ' +
        'exceeds the limit. Example of standard property policy wording.',
      given: 'A covered property loss of {{loss_amount}}',
      when: 'The adjuster calculates the payment',
      then: 'Pay {{payout}} (coinsurance factor {{coinsurance_factor}} of the {{loss_amount}} loss, less the {{deductible}} deductible).',
      inputSchema: {
        type: 'object',
        properties: {
          loss_amount: { type: 'number', title: 'Covered loss (USD)', minimum: 0, 'x-aliases': ['loss', 'damage', 'claim amount'] },
          deductible: { type: 'number', title: 'Deductible (USD)', minimum: 0, 'x-aliases': ['excess', 'deductible amount'] },
          policy_limit: { type: 'number', title: 'Limit of insurance carried (USD)', exclusiveMinimum: 0, 'x-aliases': ['coverage limit', 'sum insured', 'limit'] },
          replacement_cost: { type: 'number', title: 'Replacement cost of the property (USD)', exclusiveMinimum: 0, 'x-aliases': ['insurable value', 'replacement value'] },
          coinsurance_pct: {
            type: 'number',
            title: 'Coinsurance requirement',
            description: 'As a fraction, e.g. 0.8 for an 80% clause.',
            'x-aliases': ['coinsurance', 'coinsurance clause'],
          },
        },
        required: ['loss_amount', 'deductible', 'policy_limit', 'replacement_cost', 'coinsurance_pct'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          coinsurance_factor: { type: 'number', title: 'Coinsurance factor (did / should)' },
          payout: { type: 'number', title: 'Payment (USD)', 'x-aliases': ['settlement', 'claim payment', 'indemnity'] },
        },
        required: ['coinsurance_factor', 'payout'],
      },
      definition: {
        steps: [
          { id: 'required_limit', set: 'required_limit', expr: 'coinsurance_pct * replacement_cost' },
          { id: 'factor_full', set: 'coinsurance_factor', expr: '1.0' },
          { id: 'factor_penalty', if: 'policy_limit < required_limit', set: 'coinsurance_factor', expr: 'policy_limit / required_limit' },
          { id: 'gross', set: 'payout', expr: 'loss_amount * coinsurance_factor - deductible' },
          { id: 'floor', if: 'payout < 0', set: 'payout', expr: '0.0' },
          { id: 'cap', if: 'payout > policy_limit', set: 'payout', expr: 'policy_limit' },
        ],
      },
      examples: [
        {
          name: 'underinsured: 300k carried where 400k was required',
          inputs: { loss_amount: 100000, deductible: 1000, policy_limit: 300000, replacement_cost: 500000, coinsurance_pct: 0.8 },
          expected: {
            coinsurance_factor: 0.75,
            payout: 74000,
            texts: ['Pay 74000 (coinsurance factor 0.75 of the 100000 loss, less the 1000 deductible).'],
          },
        },
        {
          name: 'exactly meets the coinsurance requirement',
          inputs: { loss_amount: 100000, deductible: 1000, policy_limit: 400000, replacement_cost: 500000, coinsurance_pct: 0.8 },
          expected: { coinsurance_factor: 1, payout: 99000 },
        },
        {
          name: 'loss below the deductible pays nothing',
          inputs: { loss_amount: 800, deductible: 1000, policy_limit: 400000, replacement_cost: 500000, coinsurance_pct: 0.8 },
          expected: { payout: 0 },
        },
        {
          name: 'total loss is capped at the limit',
          inputs: { loss_amount: 500000, deductible: 2500, policy_limit: 450000, replacement_cost: 500000, coinsurance_pct: 0.9 },
          expected: { coinsurance_factor: 1, payout: 450000 },
        },
      ],
    },
    {
      name: 'Auto total-loss determination',
      unitType: 'pattern',
      description:
        'A vehicle is declared a total loss when the repair estimate reaches the state\'s total-loss threshold as a ' +
        'share of its actual cash value (e.g. 75% in many states; some use a total-loss formula instead). Example of ' +
        'common state practice; check the state\'s threshold and salvage-title rules.',
      given: 'A damaged insured vehicle with an actual cash value of {{actual_cash_value}}',
      when: 'The repair estimate is compared with the vehicle\'s value',
      then: 'Settle at the actual cash value of {{actual_cash_value}} less the deductible, plus applicable taxes and fees.',
      inputSchema: {
        type: 'object',
        properties: {
          repair_estimate: { type: 'number', title: 'Repair estimate (USD)', 'x-aliases': ['repair cost', 'estimate', 'cost to repair'] },
          actual_cash_value: { type: 'number', title: 'Actual cash value (USD)', 'x-aliases': ['ACV', 'vehicle value', 'market value'] },
          total_loss_threshold: {
            type: 'number',
            title: 'State total-loss threshold',
            description: 'As a fraction of actual cash value, e.g. 0.75.',
            'x-aliases': ['TLT', 'total loss threshold'],
          },
        },
        required: ['repair_estimate', 'actual_cash_value', 'total_loss_threshold'],
      },
      outputSchema: { type: 'object', properties: { fires: { type: 'boolean', title: 'Total loss', 'x-aliases': ['totaled', 'write-off'] } } },
      definition: {
        elements: [
          { id: 'valued', kind: 'condition', when: 'actual_cash_value > 0' },
          { id: 'over_threshold', kind: 'condition', when: 'repair_estimate >= total_loss_threshold * actual_cash_value' },
          { id: 'total_loss', kind: 'conclusion', text: 'Declare the vehicle a total loss: the repair estimate of {{repair_estimate}} reaches the threshold.' },
          { id: 'salvage', kind: 'conclusion', text: 'Take title to the salvage and report it as the state requires (salvage title branding).' },
        ],
      },
      examples: [
        {
          name: 'repairs at exactly 75% of value',
          inputs: { repair_estimate: 7500, actual_cash_value: 10000, total_loss_threshold: 0.75 },
          expected: {
            fires: true,
            texts: [
              'Declare the vehicle a total loss: the repair estimate of 7500 reaches the threshold.',
              'Take title to the salvage and report it as the state requires (salvage title branding).',
              'Settle at the actual cash value of 10000 less the deductible, plus applicable taxes and fees.',
            ],
          },
        },
        { name: 'just below the threshold is repaired', inputs: { repair_estimate: 7499, actual_cash_value: 10000, total_loss_threshold: 0.75 }, expected: { fires: false, texts: [] } },
        { name: 'a 100% threshold state', inputs: { repair_estimate: 9000, actual_cash_value: 10000, total_loss_threshold: 1.0 }, expected: { fires: false } },
      ],
    },
    {
      name: 'Homeowners coverage for a reported loss',
      unitType: 'argument',
      description:
        'Whether a homeowners (HO-3 style) policy covers a loss: the policy was in force, the loss is physical damage ' +
        'to covered property, and notice was prompt. Standard exclusions defeat coverage: flood, earth movement, ' +
        'wear and tear, and intentional acts; material misrepresentation in the application can void the policy. ' +
        'Example analysis; the policy wording governs. Not legal advice.',
      given: 'A reported loss caused by {{cause_of_loss}}',
      when: 'The adjuster makes a coverage determination',
      then: 'Confirm coverage in writing and proceed to adjust the loss.',
      inputSchema: {
        type: 'object',
        properties: {
          policy_in_force: { type: 'boolean', title: 'Policy in force on the date of loss', 'x-aliases': ['active policy', 'policy active'] },
          cause_of_loss: {
            type: 'string',
            title: 'Cause of loss',
            enum: ['fire', 'windstorm', 'hail', 'theft', 'sudden_water_discharge', 'flood', 'earth_movement', 'wear_and_tear'],
            'x-aliases': ['peril', 'cause', 'what happened'],
          },
          days_to_notice: { type: 'integer', title: 'Days from loss to notice', minimum: 0, 'x-aliases': ['notice delay', 'reporting delay'] },
          intentional_act: { type: 'boolean', title: 'Loss intentionally caused by an insured', 'x-aliases': ['arson', 'intentional damage'] },
          material_misrepresentation: {
            type: 'boolean',
            title: 'Material misrepresentation in the application or claim',
            'x-aliases': ['misrepresentation', 'concealment', 'fraud'],
          },
        },
        required: ['policy_in_force', 'cause_of_loss', 'days_to_notice', 'intentional_act', 'material_misrepresentation'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          stands: { type: 'boolean', title: 'Covered', 'x-aliases': ['covered', 'coverage'] },
          defeatedBy: { type: 'string', title: 'Exclusion or defence that applies' },
        },
      },
      definition: {
        elements: [
          { id: 'in_force', kind: 'premise', text: 'The policy was in force on the date of loss.', when: 'policy_in_force' },
          { id: 'direct_loss', kind: 'premise', text: 'The loss is direct physical damage to covered property caused by {{cause_of_loss}}.' },
          { id: 'prompt_notice', kind: 'premise', text: 'Notice was given promptly (within 60 days here).', when: 'days_to_notice <= 60' },
          { id: 'flood', kind: 'rebuttal', text: 'Flood is excluded; coverage requires a separate flood policy (e.g. NFIP).', when: 'cause_of_loss == "flood"' },
          { id: 'earth_movement', kind: 'rebuttal', text: 'Earth movement (earthquake, landslide, sinkhole) is excluded.', when: 'cause_of_loss == "earth_movement"' },
          { id: 'wear_and_tear', kind: 'rebuttal', text: 'Wear and tear, deterioration and maintenance issues are excluded.', when: 'cause_of_loss == "wear_and_tear"' },
          { id: 'intentional', kind: 'rebuttal', text: 'Intentional loss caused by an insured is excluded.', when: 'intentional_act' },
          { id: 'misrepresentation', kind: 'rebuttal', text: 'Material misrepresentation may void coverage; refer to coverage counsel.', when: 'material_misrepresentation' },
          { id: 'covered', kind: 'conclusion', text: 'The loss is covered, subject to the deductible and limits.' },
        ],
      },
      examples: [
        {
          name: 'sudden water discharge reported promptly',
          inputs: { policy_in_force: true, cause_of_loss: 'sudden_water_discharge', days_to_notice: 3, intentional_act: false, material_misrepresentation: false },
          expected: {
            stands: true,
            defeatedBy: null,
            texts: [
              'The loss is covered, subject to the deductible and limits.',
              'Confirm coverage in writing and proceed to adjust the loss.',
            ],
          },
        },
        {
          name: 'flood is excluded',
          inputs: { policy_in_force: true, cause_of_loss: 'flood', days_to_notice: 5, intentional_act: false, material_misrepresentation: false },
          expected: { stands: false, defeatedBy: 'flood', texts: ['Flood is excluded; coverage requires a separate flood policy (e.g. NFIP).'] },
        },
        {
          name: 'notice on day 61 is not prompt',
          inputs: { policy_in_force: true, cause_of_loss: 'hail', days_to_notice: 61, intentional_act: false, material_misrepresentation: false },
          expected: { stands: false, defeatedBy: null },
        },
        {
          name: 'lapsed policy',
          inputs: { policy_in_force: false, cause_of_loss: 'fire', days_to_notice: 1, intentional_act: false, material_misrepresentation: false },
          expected: { stands: false },
        },
      ],
    },
    {
      name: 'First notice of loss handling',
      unitType: 'protocol',
      description:
        'Claim handling from first notice to decision: acknowledge within 15 days, triage injuries and large losses, ' +
        'reserve rights when coverage is in question, and explain any denial in writing with the policy language ' +
        'relied on. Timelines follow the NAIC Unfair Claims Settlement Practices model regulation as an example; ' +
        'states set their own. Not legal advice.',
      given: 'A first notice of loss on policy {{policy_number}}',
      when: 'A claim handler takes the claim',
      then: 'Diary the claim on policy {{policy_number}} for review in 30 days.',
      inputSchema: {
        type: 'object',
        properties: {
          policy_number: { type: 'string', title: 'Policy number', 'x-aliases': ['policy', 'policy no'] },
          estimated_loss: { type: 'number', title: 'Estimated loss (USD)', 'x-aliases': ['loss estimate', 'claim amount', 'reserve'] },
        },
        required: ['policy_number', 'estimated_loss'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          injuries: { type: 'string', title: 'Injuries reported', enum: ['yes', 'no'] },
          coverage_question: { type: 'string', title: 'Coverage in question', enum: ['yes', 'no'] },
          decision: { type: 'string', title: 'Claim decision', enum: ['pay', 'partial', 'deny'] },
        },
      },
      definition: {
        steps: [
          { id: 'acknowledge', text: 'Acknowledge the claim on policy {{policy_number}} within 15 days and tell the claimant what is needed to proceed.' },
          {
            id: 'large_loss',
            if: 'estimated_loss >= 100000',
            text: 'Assign the claim to the large-loss unit and notify reinsurance if the treaty requires.',
          },
          { id: 'injury_gate', gate: { name: 'injuries', question: 'Were any people injured?', options: ['yes', 'no'] } },
          { id: 'bodily_injury', if: 'injuries == "yes"', text: 'Assign a bodily-injury adjuster and set an injury reserve.' },
          {
            id: 'coverage_gate',
            gate: { name: 'coverage_question', question: 'Is there any question whether the policy covers this loss?', options: ['no', 'yes'] },
          },
          {
            id: 'reservation',
            if: 'coverage_question == "yes"',
            text: 'Send a reservation-of-rights letter citing the policy provisions at issue before investigating further.',
          },
          {
            id: 'decision_gate',
            gate: { name: 'decision', question: 'What is the claim decision after investigation?', options: ['pay', 'partial', 'deny'] },
          },
          { id: 'pay', if: 'decision in ["pay", "partial"]', text: 'Pay the undisputed amount within 30 days of agreeing the settlement.' },
          {
            id: 'explain',
            if: 'decision in ["partial", "deny"]',
            text: 'Explain the denial in writing, citing the specific policy language and facts relied on, and state any appeal rights.',
          },
        ],
      },
      examples: [
        {
          name: 'large loss pauses on the injury question',
          inputs: { policy_number: 'HO-1234', estimated_loss: 100000 },
          expected: {
            status: 'paused',
            texts: [
              'Acknowledge the claim on policy HO-1234 within 15 days and tell the claimant what is needed to proceed.',
              'Assign the claim to the large-loss unit and notify reinsurance if the treaty requires.',
            ],
          },
        },
        {
          name: 'simple paid claim',
          inputs: { policy_number: 'HO-1234', estimated_loss: 8000, injuries: 'no', coverage_question: 'no', decision: 'pay' },
          expected: {
            status: 'completed',
            decision: 'pay',
            texts: [
              'Acknowledge the claim on policy HO-1234 within 15 days and tell the claimant what is needed to proceed.',
              'Pay the undisputed amount within 30 days of agreeing the settlement.',
              'Diary the claim on policy HO-1234 for review in 30 days.',
            ],
          },
        },
        {
          name: 'coverage question ending in a partial payment',
          inputs: { policy_number: 'AU-77', estimated_loss: 12000, injuries: 'yes', coverage_question: 'yes', decision: 'partial' },
          expected: {
            status: 'completed',
            texts: [
              'Acknowledge the claim on policy AU-77 within 15 days and tell the claimant what is needed to proceed.',
              'Assign a bodily-injury adjuster and set an injury reserve.',
              'Send a reservation-of-rights letter citing the policy provisions at issue before investigating further.',
              'Pay the undisputed amount within 30 days of agreeing the settlement.',
              'Explain the denial in writing, citing the specific policy language and facts relied on, and state any appeal rights.',
              'Diary the claim on policy AU-77 for review in 30 days.',
            ],
          },
        },
      ],
    },
  ],
};
