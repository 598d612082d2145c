import type { DomainTemplate } from './index.js';

/** Clinical decision support and health-privacy compliance. */
export const healthcare: DomainTemplate = {
  id: 'healthcare',
  name: 'Healthcare',
  description:
    'Clinical decision support and health-information compliance: sepsis screening, renal dose adjustment, ' +
    'medication contraindications, informed consent, HIPAA disclosures and breach notification. Clinical content ' +
    'supports, never replaces, a clinician\'s judgement; regulatory figures are examples of US federal policy. Not ' +
    'medical or legal advice.',
  jurisdiction: 'US',
  units: [
    {
      name: 'qSOFA sepsis screen',
      unitType: 'framework',
      description:
        'The quick Sequential Organ Failure Assessment (Sepsis-3): one point each for a respiratory rate of 22/min or ' +
        'more, altered mentation (GCS below 15) and a systolic blood pressure of 100 mmHg or less. Two or more points ' +
        'in a patient with suspected infection flag a higher risk of poor outcome. A screening aid, not a diagnosis.',
      given: 'An adult patient with suspected infection',
      when: 'Bedside vital signs are screened for sepsis risk',
      then: 'qSOFA {{score}} (alert at {{threshold}}).',
      inputSchema: {
        type: 'object',
        properties: {
          respiratory_rate: { type: 'integer', title: 'Respiratory rate (breaths/min)', 'x-aliases': ['RR', 'resp rate', 'breathing rate'] },
          gcs: {
            type: 'integer',
            title: 'Glasgow Coma Scale',
            minimum: 3,
            maximum: 15,
            'x-aliases': ['GCS', 'mental status', 'consciousness'],
          },
          systolic_bp: { type: 'integer', title: 'Systolic blood pressure (mmHg)', 'x-aliases': ['SBP', 'systolic', 'blood pressure'] },
        },
        required: ['respiratory_rate', 'gcs', 'systolic_bp'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          score: { type: 'number', title: 'qSOFA score', 'x-aliases': ['qSOFA'] },
          passed: { type: 'boolean', title: 'High risk (qSOFA 2 or more)' },
        },
      },
      definition: {
        elements: [
          { id: 'tachypnea', label: 'Respiratory rate of 22/min or more', weight: 1, when: 'respiratory_rate >= 22' },
          { id: 'mentation', label: 'Altered mentation (GCS below 15)', weight: 1, when: 'gcs < 15' },
          { id: 'hypotension', label: 'Systolic blood pressure of 100 mmHg or less', weight: 1, when: 'systolic_bp <= 100' },
        ],
        threshold: 2,
        outcomes: {
          pass: 'qSOFA positive ({{score}}/3): assess for organ dysfunction, obtain lactate and blood cultures, and escalate to the treating clinician now.',
          fail: 'qSOFA negative ({{score}}/3): continue monitoring; a negative screen does not rule out sepsis.',
        },
      },
      examples: [
        {
          name: 'two criteria on their boundaries',
          inputs: { respiratory_rate: 22, gcs: 15, systolic_bp: 100 },
          expected: {
            score: 2,
            passed: true,
            texts: [
              'qSOFA positive (2/3): assess for organ dysfunction, obtain lactate and blood cultures, and escalate to the treating clinician now.',
              'qSOFA 2 (alert at 2).',
            ],
          },
        },
        { name: 'just inside normal limits', inputs: { respiratory_rate: 21, gcs: 15, systolic_bp: 101 }, expected: { score: 0, passed: false } },
        { name: 'confusion alone', inputs: { respiratory_rate: 18, gcs: 14, systolic_bp: 120 }, expected: { score: 1, outcome: 'fail' } },
        { name: 'all three criteria', inputs: { respiratory_rate: 30, gcs: 12, systolic_bp: 85 }, expected: { score: 3, outcome: 'pass' } },
      ],
    },
    {
      name: 'Creatinine clearance and renal dose adjustment (Cockcroft-Gault)',
      unitType: 'program',
      description:
        'Estimates creatinine clearance with the Cockcroft-Gault equation, ((140 - age) x weight) / (72 x serum ' +
        'creatinine), times 0.85 for female patients, and maps it to a renal dosing band used by many drug labels: ' +
        '50 mL/min or more standard dosing, 30-49 reduced dose, 15-29 substantially reduced or avoid, below 15 avoid ' +
        'unless on dialysis guidance. Check each drug\'s label; a decision aid, not a prescription.',
      given: 'An adult patient with a stable serum creatinine',
      when: 'A renally cleared drug is dosed',
      then: 'Estimated creatinine clearance {{crcl_ml_min}} mL/min: {{dose_adjustment}}.',
      inputSchema: {
        type: 'object',
        properties: {
          age: { type: 'integer', title: 'Age (years)', minimum: 18, 'x-aliases': ['patient age', 'years old'] },
          weight_kg: { type: 'number', title: 'Weight (kg)', 'x-aliases': ['weight', 'body weight'] },
          serum_creatinine: {
            type: 'number',
            title: 'Serum creatinine (mg/dL)',
            exclusiveMinimum: 0,
            'x-aliases': ['creatinine', 'SCr', 'Cr'],
          },
          sex: { type: 'string', title: 'Sex assigned at birth', enum: ['female', 'male'], 'x-aliases': ['gender'] },
        },
        required: ['age', 'weight_kg', 'serum_creatinine', 'sex'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          crcl_ml_min: { type: 'number', title: 'Creatinine clearance (mL/min)', 'x-aliases': ['CrCl', 'creatinine clearance', 'kidney function'] },
          dose_adjustment: { type: 'string', title: 'Renal dosing band' },
        },
        required: ['crcl_ml_min', 'dose_adjustment'],
      },
      definition: {
        steps: [
          { id: 'cockcroft_gault', set: 'crcl_ml_min', expr: '(140 - age) * weight_kg / (72 * serum_creatinine)' },
          { id: 'female_factor', if: 'sex == "female"', set: 'crcl_ml_min', expr: 'crcl_ml_min * 0.85' },
          { id: 'standard', set: 'dose_adjustment', expr: '"standard dosing"' },
          { id: 'moderate', if: 'crcl_ml_min < 50', set: 'dose_adjustment', expr: '"reduce the dose or extend the interval per the label"' },
          { id: 'severe', if: 'crcl_ml_min < 30', set: 'dose_adjustment', expr: '"substantially reduce the dose or avoid; consult pharmacy"' },
          { id: 'failure', if: 'crcl_ml_min < 15', set: 'dose_adjustment', expr: '"avoid unless the label gives dialysis dosing; consult nephrology"' },
        ],
      },
      examples: [
        {
          name: '60-year-old man, 72 kg, creatinine 1.0',
          inputs: { age: 60, weight_kg: 72, serum_creatinine: 1.0, sex: 'male' },
          expected: {
            crcl_ml_min: 80,
            dose_adjustment: 'standard dosing',
            texts: ['Estimated creatinine clearance 80 mL/min: standard dosing.'],
          },
        },
        {
          name: 'female factor lands exactly on 50',
          inputs: { age: 80, weight_kg: 72, serum_creatinine: 1.02, sex: 'female' },
          expected: { crcl_ml_min: 50, dose_adjustment: 'standard dosing' },
        },
        {
          name: '80-year-old man, 60 kg, creatinine 2.0',
          inputs: { age: 80, weight_kg: 60, serum_creatinine: 2.0, sex: 'male' },
          expected: { crcl_ml_min: 25, dose_adjustment: 'substantially reduce the dose or avoid; consult pharmacy' },
        },
        {
          name: 'kidney failure range',
          inputs: { age: 90, weight_kg: 50, serum_creatinine: 4.0, sex: 'female' },
          expected: { dose_adjustment: 'avoid unless the label gives dialysis dosing; consult nephrology' },
        },
      ],
    },
    {
      name: 'Metformin contraindication in reduced kidney function',
      unitType: 'pattern',
      description:
        'Per the FDA labeling (2016 update), metformin is contraindicated when eGFR is below 30 mL/min/1.73m2; ' +
        'starting it is not recommended between 30 and 45. This pattern raises the contraindication alert. A decision ' +
        'aid for prescribers.',
      given: 'A prescription for {{medication}}',
      when: 'Medication safety checks run at order entry',
      then: 'Alert the prescriber: eGFR {{egfr}} is below 30.',
      inputSchema: {
        type: 'object',
        properties: {
          medication: { type: 'string', title: 'Medication (generic name)', 'x-aliases': ['drug', 'prescription', 'order'] },
          egfr: {
            type: 'number',
            title: 'eGFR (mL/min/1.73m2)',
            'x-aliases': ['eGFR', 'GFR', 'glomerular filtration rate', 'kidney function'],
          },
        },
        required: ['medication', 'egfr'],
      },
      outputSchema: { type: 'object', properties: { fires: { type: 'boolean', title: 'Contraindicated', 'x-aliases': ['contraindication'] } } },
      definition: {
        elements: [
          { id: 'is_metformin', kind: 'condition', when: 'medication.lowerAscii().contains("metformin")' },
          { id: 'egfr_below_30', kind: 'condition', when: 'egfr < 30' },
          { id: 'contraindicated', kind: 'conclusion', text: 'Metformin is contraindicated at this level of kidney function: do not start it, and stop it if already prescribed.' },
          { id: 'alternative', kind: 'conclusion', text: 'Consider an alternative glucose-lowering agent appropriate for the eGFR.' },
        ],
      },
      examples: [
        {
          name: 'eGFR 29 with a metformin combination product',
          inputs: { medication: 'Sitagliptin-Metformin', egfr: 29 },
          expected: {
            fires: true,
            texts: [
              'Metformin is contraindicated at this level of kidney function: do not start it, and stop it if already prescribed.',
              'Consider an alternative glucose-lowering agent appropriate for the eGFR.',
              'Alert the prescriber: eGFR 29 is below 30.',
            ],
          },
        },
        { name: 'eGFR exactly 30 is not contraindicated', inputs: { medication: 'metformin', egfr: 30 }, expected: { fires: false, texts: [] } },
        { name: 'another drug', inputs: { medication: 'glipizide', egfr: 20 }, expected: { fires: false } },
      ],
    },
    {
      name: 'Valid informed consent to a procedure',
      unitType: 'argument',
      description:
        'Whether informed consent supports proceeding: the patient has decision-making capacity, was told the nature, ' +
        'risks, benefits and alternatives, and agreed voluntarily. A minor without a parent or guardian\'s consent, or ' +
        'a withdrawal of consent, defeats it. Emergency treatment without consent follows a separate rule. Example of ' +
        'general US practice. Not legal advice.',
      given: 'A planned procedure: {{procedure}}',
      when: 'The team confirms consent before starting',
      then: 'Record the consent discussion in the chart and proceed with {{procedure}}.',
      inputSchema: {
        type: 'object',
        properties: {
          procedure: { type: 'string', title: 'Procedure', 'x-aliases': ['operation', 'treatment', 'surgery'] },
          has_capacity: { type: 'boolean', title: 'Patient has decision-making capacity', 'x-aliases': ['capacity', 'competent'] },
          risks_disclosed: {
            type: 'boolean',
            title: 'Nature, risks, benefits and alternatives disclosed',
            'x-aliases': ['disclosure', 'risks explained'],
          },
          voluntary: { type: 'boolean', title: 'Agreement given voluntarily', 'x-aliases': ['free consent', 'no coercion'] },
          patient_age: { type: 'integer', title: 'Patient age', 'x-aliases': ['age'] },
          guardian_consent: {
            type: 'boolean',
            title: 'Parent or guardian consented',
            description: 'Relevant for minors; false when no guardian consent was obtained.',
            'x-aliases': ['parental consent', 'guardian'],
          },
          consent_withdrawn: { type: 'boolean', title: 'Patient withdrew consent', 'x-aliases': ['withdrawal', 'refused'] },
        },
        required: ['procedure', 'has_capacity', 'risks_disclosed', 'voluntary', 'patient_age', 'guardian_consent', 'consent_withdrawn'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          stands: { type: 'boolean', title: 'Valid consent', 'x-aliases': ['consent valid'] },
          defeatedBy: { type: 'string', title: 'Defeating circumstance' },
        },
      },
      definition: {
        elements: [
          { id: 'capacity', kind: 'premise', text: 'The patient has capacity to make this decision.', when: 'has_capacity || patient_age < 18' },
          { id: 'disclosure', kind: 'premise', text: 'The nature, risks, benefits and alternatives of {{procedure}} were explained.', when: 'risks_disclosed' },
          { id: 'voluntary', kind: 'premise', text: 'The decision was made voluntarily.', when: 'voluntary' },
          { id: 'minor', kind: 'rebuttal', text: 'The patient is a minor and no parent or guardian consented.', when: 'patient_age < 18 && !guardian_consent' },
          { id: 'withdrawn', kind: 'rebuttal', text: 'The patient withdrew consent; stop and revisit the discussion.', when: 'consent_withdrawn' },
          { id: 'consent_valid', kind: 'conclusion', text: 'Valid informed consent supports proceeding with {{procedure}}.' },
        ],
      },
      examples: [
        {
          name: 'competent adult, full disclosure',
          inputs: {
            procedure: 'laparoscopic cholecystectomy', has_capacity: true, risks_disclosed: true, voluntary: true,
            patient_age: 45, guardian_consent: false, consent_withdrawn: false,
          },
          expected: {
            stands: true,
            texts: [
              'Valid informed consent supports proceeding with laparoscopic cholecystectomy.',
              'Record the consent discussion in the chart and proceed with laparoscopic cholecystectomy.',
            ],
          },
        },
        {
          name: '17-year-old without guardian consent',
          inputs: {
            procedure: 'tonsillectomy', has_capacity: false, risks_disclosed: true, voluntary: true,
            patient_age: 17, guardian_consent: false, consent_withdrawn: false,
          },
          expected: { stands: false, defeatedBy: 'minor', texts: ['The patient is a minor and no parent or guardian consented.'] },
        },
        {
          name: 'an 18-year-old consents for themself',
          inputs: {
            procedure: 'tonsillectomy', has_capacity: true, risks_disclosed: true, voluntary: true,
            patient_age: 18, guardian_consent: false, consent_withdrawn: false,
          },
          expected: { stands: true },
        },
        {
          name: 'risks not explained',
          inputs: {
            procedure: 'knee arthroscopy', has_capacity: true, risks_disclosed: false, voluntary: true,
            patient_age: 60, guardian_consent: false, consent_withdrawn: false,
          },
          expected: { stands: false, defeatedBy: null },
        },
      ],
    },
    {
      name: 'HIPAA minimum-necessary disclosure review',
      unitType: 'protocol',
      jurisdiction: 'US',
      description:
        'How a covered entity handles a request to use or disclose protected health information: treatment ' +
        'disclosures and disclosures to the patient are exempt from the minimum-necessary standard (45 CFR ' +
        '164.502(b)); research needs an authorization or an IRB/privacy-board waiver; other purposes are limited to the ' +
        'minimum necessary by the privacy officer. Example procedure. Not legal advice.',
      given: 'A request from {{requester}} for protected health information for {{purpose}}',
      when: 'The privacy office reviews the request',
      then: 'Log the request from {{requester}} and the decision in the disclosure tracking system.',
      inputSchema: {
        type: 'object',
        properties: {
          requester: { type: 'string', title: 'Requester', 'x-aliases': ['requesting party', 'recipient'] },
          purpose: {
            type: 'string',
            title: 'Purpose of the request',
            enum: ['treatment', 'payment', 'health_care_operations', 'patient_request', 'research', 'law_enforcement'],
            'x-aliases': ['reason', 'use'],
          },
        },
        required: ['requester', 'purpose'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          research_permission: { type: 'string', title: 'Research permission', enum: ['authorization', 'waiver', 'none'] },
          scope_limited: { type: 'string', title: 'Request limited to the minimum necessary', enum: ['yes', 'no'] },
        },
      },
      definition: {
        steps: [
          {
            id: 'treatment_exempt',
            if: 'purpose == "treatment"',
            text: 'Minimum necessary does not apply to disclosures to a provider for treatment: disclose what the treating provider needs.',
          },
          {
            id: 'patient_exempt',
            if: 'purpose == "patient_request"',
            text: 'Minimum necessary does not apply to the individual\'s own request: verify identity and respond within 30 days (45 CFR 164.524).',
          },
          {
            id: 'research_gate',
            if: 'purpose == "research"',
            gate: {
              name: 'research_permission',
              question: 'Does the research request have a signed HIPAA authorization or an IRB/privacy-board waiver?',
              options: ['authorization', 'waiver', 'none'],
            },
          },
          {
            id: 'research_denied',
            if: 'research_permission == "none"',
            text: 'Do not disclose: research needs an authorization, a waiver, a limited data set under a data use agreement, or de-identified data.',
          },
          {
            id: 'scope_gate',
            if: 'purpose in ["payment", "health_care_operations", "law_enforcement"] || research_permission == "waiver"',
            gate: {
              name: 'scope_limited',
              question: 'Has the privacy officer limited the {{purpose}} request to the minimum necessary data elements?',
              options: ['yes', 'no'],
            },
          },
          {
            id: 'narrow',
            if: 'scope_limited == "no"',
            text: 'Do not release yet: narrow the request to the fields needed for its purpose and document the reasoning.',
          },
          {
            id: 'research_authorized',
            if: 'research_permission == "authorization"',
            text: 'Disclose what the signed authorization covers; disclosures under an authorization are exempt from minimum necessary and from the accounting.',
          },
          { id: 'release', if: 'scope_limited == "yes"', text: 'Release only the approved data elements to {{requester}}.' },
          {
            id: 'accounting',
            if: 'scope_limited == "yes" && (purpose == "law_enforcement" || research_permission == "waiver")',
            text: 'Record the disclosure in the accounting of disclosures kept for six years (45 CFR 164.528).',
          },
        ],
      },
      examples: [
        {
          name: 'treatment request is exempt',
          inputs: { requester: 'Dr. Lee, cardiology', purpose: 'treatment' },
          expected: {
            status: 'completed',
            texts: [
              'Minimum necessary does not apply to disclosures to a provider for treatment: disclose what the treating provider needs.',
              'Log the request from Dr. Lee, cardiology and the decision in the disclosure tracking system.',
            ],
          },
        },
        {
          name: 'payment request pauses for the scope review',
          inputs: { requester: 'Acme Health Plan', purpose: 'payment' },
          expected: { status: 'paused', texts: [] },
        },
        {
          name: 'research without authorization is refused',
          inputs: { requester: 'University study', purpose: 'research', research_permission: 'none' },
          expected: {
            status: 'completed',
            texts: [
              'Do not disclose: research needs an authorization, a waiver, a limited data set under a data use agreement, or de-identified data.',
              'Log the request from University study and the decision in the disclosure tracking system.',
            ],
          },
        },
        {
          name: 'law enforcement request, scoped',
          inputs: { requester: 'County sheriff', purpose: 'law_enforcement', scope_limited: 'yes' },
          expected: {
            status: 'completed',
            scope_limited: 'yes',
            texts: [
              'Release only the approved data elements to County sheriff.',
              'Record the disclosure in the accounting of disclosures kept for six years (45 CFR 164.528).',
              'Log the request from County sheriff and the decision in the disclosure tracking system.',
            ],
          },
        },
      ],
    },
    {
      name: 'HIPAA breach notification deadlines',
      unitType: 'program',
      jurisdiction: 'US',
      description:
        'Who must be notified of a breach of unsecured protected health information (45 CFR 164.400-414): affected ' +
        'individuals within 60 days of discovery; HHS within 60 days when 500 or more are affected, otherwise in the ' +
        'annual log within 60 days after the calendar year ends; prominent media in a state or jurisdiction where ' +
        'more than 500 residents are affected. A documented risk assessment showing a low probability of compromise ' +
        'means no notification. Example of federal policy. Not legal advice.',
      given: 'An impermissible use or disclosure of PHI affecting {{affected_individuals}} individuals',
      when: 'The privacy officer determines the notification duties',
      then: 'Notify individuals: {{notify_individuals}} (within {{individual_notice_days}} days of discovery); HHS: {{hhs_notice}}; media: {{notify_media}}.',
      inputSchema: {
        type: 'object',
        properties: {
          affected_individuals: { type: 'integer', title: 'Individuals affected', minimum: 0, 'x-aliases': ['patients affected', 'records affected', 'breach size'] },
          max_residents_in_one_state: {
            type: 'integer',
            title: 'Most affected residents of any one state or jurisdiction',
            minimum: 0,
            'x-aliases': ['residents affected', 'state residents'],
          },
          low_probability_of_compromise: {
            type: 'boolean',
            title: 'Risk assessment shows a low probability of compromise',
            description: 'From the four-factor assessment of 45 CFR 164.402(2).',
            'x-aliases': ['risk assessment', 'low risk'],
          },
        },
        required: ['affected_individuals', 'max_residents_in_one_state', 'low_probability_of_compromise'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          notify_individuals: { type: 'boolean', title: 'Notify affected individuals' },
          individual_notice_days: { type: 'integer', title: 'Days from discovery to notify individuals' },
          hhs_notice: { type: 'string', title: 'HHS notice', enum: ['within 60 days of discovery', 'annual log within 60 days of year end', 'not required'] },
          notify_media: { type: 'boolean', title: 'Notify prominent media outlets' },
        },
        required: ['notify_individuals', 'individual_notice_days', 'hhs_notice', 'notify_media'],
      },
      definition: {
        steps: [
          { id: 'individuals', set: 'notify_individuals', expr: 'affected_individuals > 0' },
          { id: 'individual_deadline', set: 'individual_notice_days', expr: '60' },
          { id: 'hhs_small', set: 'hhs_notice', expr: '"annual log within 60 days of year end"' },
          { id: 'hhs_large', if: 'affected_individuals >= 500', set: 'hhs_notice', expr: '"within 60 days of discovery"' },
          { id: 'media', set: 'notify_media', expr: 'max_residents_in_one_state > 500' },
          { id: 'no_breach_individuals', if: 'low_probability_of_compromise', set: 'notify_individuals', expr: 'false', exception: true },
          { id: 'no_breach_hhs', if: 'low_probability_of_compromise', set: 'hhs_notice', expr: '"not required"', exception: true },
          { id: 'no_breach_media', if: 'low_probability_of_compromise', set: 'notify_media', expr: 'false', exception: true },
        ],
      },
      examples: [
        {
          name: 'exactly 500 affected, 500 in one state',
          inputs: { affected_individuals: 500, max_residents_in_one_state: 500, low_probability_of_compromise: false },
          expected: {
            notify_individuals: true,
            hhs_notice: 'within 60 days of discovery',
            notify_media: false,
            texts: ['Notify individuals: true (within 60 days of discovery); HHS: within 60 days of discovery; media: false.'],
          },
        },
        {
          name: '499 affected goes to the annual log',
          inputs: { affected_individuals: 499, max_residents_in_one_state: 499, low_probability_of_compromise: false },
          expected: { hhs_notice: 'annual log within 60 days of year end', notify_media: false },
        },
        {
          name: '501 residents of one state triggers media notice',
          inputs: { affected_individuals: 1200, max_residents_in_one_state: 501, low_probability_of_compromise: false },
          expected: { notify_media: true, hhs_notice: 'within 60 days of discovery' },
        },
        {
          name: 'low probability of compromise: not a reportable breach',
          inputs: { affected_individuals: 2000, max_residents_in_one_state: 2000, low_probability_of_compromise: true },
          expected: { notify_individuals: false, hhs_notice: 'not required', notify_media: false },
        },
      ],
    },
  ],
};
