/**
 * Which provider serves each model role for an organization (`settings.llm`), and the roles
 * themselves: `parse` binds a unit's inputs from the question, `evaluate` judges whether a
 * declarative unit's WHEN applies, `prose` writes connective text. Unset roles use the built-in
 * `local` provider. A remote provider that fails degrades that role to `local` for the rest of the
 * run, with an `auditWarnings` entry; `used` reports what actually served each role.
 *
 * The trust invariant holds by construction: model output only ever becomes synthesized or neural
 * segments (`Addition`s), never a unit's segment.
 */
import type { Deps } from '../deps.js';
import type { StoredOrgSettings } from '../orgs/orgs.repository.js';
import { findOrgSettings } from '../orgs/orgs.repository.js';
import type { IoSchema, VariableSchema } from '../units/definition.js';
import { CONTENT_FIELDS, type UnitContent } from '../units/unit-record.js';
import type { BindResult, ParsedQuery } from './parse/index.js';
import { bindInputs } from './parse/index.js';
import type { Addition, ProseInput } from './prose.js';
import { createProvider, type ModelProvider, ProviderError, type ProviderName } from './providers/index.js';

export interface ModelChoice {
  provider: 'local' | ProviderName;
  model: string;
}
type Role = 'parse' | 'evaluate' | 'prose';

export const LOCAL_MODELS: Record<Role, ModelChoice> = {
  parse: { provider: 'local', model: 'local-parse-1' },
  evaluate: { provider: 'local', model: 'local-evaluate-1' },
  prose: { provider: 'local', model: 'local-prose-1' },
};

/** The contract's default per-call timeout (ProviderConfig.timeoutMs). */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface ModelRoles {
  /** What served each role in this run so far (after any degradation). */
  readonly used: Record<Role, ModelChoice>;
  /** Degradations and model-output problems, for `auditWarnings`. */
  readonly warnings: string[];
  bind(parsed: ParsedQuery, inputSchema: IoSchema): Promise<BindResult>;
  /** Whether a declarative unit's WHEN applies to the question (local: it matched, so yes). */
  applies(query: string, unit: { name: string; when: string | null; given: string | null }): Promise<boolean>;
  prose(input: ProseInput, local: (input: ProseInput) => Addition[]): Promise<{ additions: Addition[]; warnings: string[] }>;
  /** Splits a process description into the parts a unit each could do (the parse role). */
  decompose(description: string, local: (description: string) => string[]): Promise<string[]>;
  /** A unit edit from an instruction (the prose role's model; else the local grammar). */
  edit(content: UnitContent, instruction: string, local: (content: UnitContent, instruction: string) => UnitEdit): Promise<UnitEdit & { provider: string }>;
}

export interface UnitEdit {
  patch: Partial<UnitContent>;
  summary: string;
}

/** The fields a model may change in an edit: a unit's content, never its identity or status. */
const EDITABLE = new Set<string>(CONTENT_FIELDS.filter((f) => f !== 'domainId'));

interface StoredProvider {
  baseUrl?: string;
  apiKeyCiphertext?: string | null;
  timeoutMs?: number;
  maxRetries?: number;
}

function providerFor(deps: Deps, settings: StoredOrgSettings, choice: ModelChoice): ModelProvider | null {
  if (choice.provider === 'local') return null;
  const llm = (settings.llm ?? {}) as { providers?: Record<string, StoredProvider> };
  const stored = llm.providers?.[choice.provider] ?? {};
  let apiKey: string | null = null;
  if (stored.apiKeyCiphertext) {
    try {
      apiKey = deps.secrets.decrypt(stored.apiKeyCiphertext);
    } catch {
      apiKey = null; // createProvider then fails every call with a `config` error, which degrades.
    }
  }
  return createProvider({
    provider: choice.provider,
    model: choice.model,
    apiKey,
    ...(stored.baseUrl === undefined ? {} : { baseUrl: stored.baseUrl }),
    timeoutMs: stored.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: stored.maxRetries ?? 2,
  });
}

const JSON_TYPES: Record<string, string> = { string: 'string', number: 'number', integer: 'integer', boolean: 'boolean' };

/** A strict-mode JSON schema asking for the unit's scalar inputs, null when the question does not say. */
function bindingSchema(inputSchema: IoSchema): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(inputSchema.properties ?? {})) {
    const type = JSON_TYPES[variable.type ?? ''];
    if (!type) continue;
    properties[name] = {
      type: [type, 'null'],
      description: [variable.title, variable.description, variable['x-aliases']?.length ? `also called: ${variable['x-aliases'].join(', ')}` : undefined].filter(Boolean).join('. ') || name.replace(/_/g, ' '),
      ...(Array.isArray(variable.enum) ? { enum: [...variable.enum, null] } : {}),
    };
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

function validValue(variable: VariableSchema, value: unknown): boolean {
  if (Array.isArray(variable.enum)) return variable.enum.includes(value);
  switch (variable.type) {
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'boolean': return typeof value === 'boolean';
    case 'string': return typeof value === 'string';
    default: return false;
  }
}

const reason = (err: unknown) => (err instanceof ProviderError ? `${err.kind}${err.status ? ` ${err.status}` : ''}` : 'error');

export async function resolveModelRoles(deps: Deps, orgId: string): Promise<ModelRoles> {
  const settings = await findOrgSettings(deps.store.db, orgId);
  const llm = (settings.llm ?? {}) as Partial<Record<Role, ModelChoice>>;
  const used: Record<Role, ModelChoice> = { ...LOCAL_MODELS };
  const providers: Partial<Record<Role, ModelProvider>> = {};
  for (const role of ['parse', 'evaluate', 'prose'] as const) {
    const choice = llm[role];
    const provider = choice ? providerFor(deps, settings, choice) : null;
    if (choice && provider) {
      providers[role] = provider;
      used[role] = { provider: choice.provider, model: choice.model };
    }
  }
  const warnings: string[] = [];
  /** Runs a role on its provider; on failure the role degrades to local for the rest of the run. */
  async function withFallback<T>(role: Role, remote: (p: ModelProvider) => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    const provider = providers[role];
    if (!provider) return local();
    try {
      return await remote(provider);
    } catch (err) {
      warnings.push(`${role}: the ${provider.name} provider failed (${reason(err)}); the local provider served this role instead`);
      delete providers[role];
      used[role] = LOCAL_MODELS[role];
      return local();
    }
  }

  return {
    used,
    warnings,
    bind: (parsed, inputSchema) =>
      withFallback('parse', async (provider) => {
        const schema = bindingSchema(inputSchema);
        const completion = await provider.complete({
          system: 'Extract the values the user states for each field. Use null for anything the question does not state. Never guess.',
          messages: [{ role: 'user', content: parsed.text }],
          json: { name: 'inputs', schema },
          temperature: 0,
        });
        const values = completion.json as Record<string, unknown>;
        const inputs: Record<string, unknown> = {};
        // The schema is strict: every key present, null when unstated. Anything else is a broken answer.
        for (const name of Object.keys(schema.properties as object)) {
          const variable = inputSchema.properties![name]!;
          if (!(name in values)) throw new ProviderError(provider.name, 'malformed', `the answer lacks ${name}`);
          const value = values[name];
          if (value === null) continue;
          if (!validValue(variable, value)) throw new ProviderError(provider.name, 'malformed', `the answer gives ${name} a value of the wrong type`);
          inputs[name] = value;
        }
        const missing = (inputSchema.required ?? []).filter((name) => !(name in inputs));
        return { inputs, bindings: Object.entries(inputs).map(([name, value]) => ({ name, value, kind: 'text' as const, clause: null, raw: String(value) })), missing };
      }, () => bindInputs(parsed, inputSchema)),
    applies: (query, unit) =>
      withFallback('evaluate', async (provider) => {
        const completion = await provider.complete({
          system: 'Decide whether a rule applies to the situation in the question. Answer only from the question.',
          messages: [{ role: 'user', content: `Rule: ${unit.name}\nGiven: ${unit.given ?? '-'}\nWhen: ${unit.when ?? '-'}\n\nQuestion: ${query}` }],
          json: { name: 'applies', schema: { type: 'object', properties: { applies: { type: 'boolean' } }, required: ['applies'], additionalProperties: false } },
          temperature: 0,
        });
        const applies = (completion.json as { applies?: unknown }).applies;
        if (typeof applies !== 'boolean') throw new ProviderError(provider.name, 'malformed', 'the answer has no boolean `applies`');
        return applies;
      }, () => true),
    decompose: (description, local) =>
      withFallback('parse', async (provider) => {
        const completion = await provider.complete({
          system: 'Split the description of a process into its steps, each a short phrase in the description\'s own words. Do not add steps.',
          messages: [{ role: 'user', content: description }],
          json: { name: 'steps', schema: { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' } } }, required: ['steps'], additionalProperties: false } },
          temperature: 0,
        });
        const steps = (completion.json as { steps?: unknown }).steps;
        if (!Array.isArray(steps) || !steps.every((x) => typeof x === 'string') || steps.length === 0) {
          throw new ProviderError(provider.name, 'malformed', 'the answer has no list of steps');
        }
        return (steps as string[]).map((x) => x.trim()).filter(Boolean);
      }, () => local(description)),
    edit: async (content, instruction, local) => {
      let provider = 'local';
      const edit = await withFallback('prose', async (model) => {
        const completion = await model.complete({
          system:
            'You edit a reasoning unit (JSON) as the instruction says. Answer with `changes`: a JSON object (as a string) of only the ' +
            'top-level fields you change, each with its complete new value in the same format as the unit; and `summary`: one ' +
            'sentence saying what you changed. Change nothing the instruction does not ask for.',
          messages: [{ role: 'user', content: `Unit:\n${JSON.stringify(content, null, 2)}\n\nInstruction: ${instruction}` }],
          // `changes` travels as a string: strict schemas cannot describe a unit's free-form parts.
          json: {
            name: 'edit',
            schema: { type: 'object', properties: { changes: { type: 'string' }, summary: { type: 'string' } }, required: ['changes', 'summary'], additionalProperties: false },
          },
          temperature: 0,
        });
        const out = completion.json as { changes?: unknown; summary?: unknown };
        let changes: unknown;
        try {
          changes = typeof out.changes === 'string' ? JSON.parse(out.changes) : undefined;
        } catch {
          changes = undefined;
        }
        if (typeof changes !== 'object' || changes === null || Array.isArray(changes) || typeof out.summary !== 'string') {
          throw new ProviderError(model.name, 'malformed', 'the answer has no `changes` object and `summary`');
        }
        const unknown = Object.keys(changes).filter((k) => !EDITABLE.has(k));
        if (unknown.length > 0) throw new ProviderError(model.name, 'malformed', `the answer changes fields that are not editable: ${unknown.join(', ')}`);
        provider = model.name;
        return { patch: changes as Partial<UnitContent>, summary: out.summary };
      }, () => local(content, instruction));
      return { ...edit, provider };
    },
    prose: async (input, local) => {
      const proseWarnings: string[] = [];
      const additions = await withFallback('prose', async (provider) => {
        const unitText = input.evaluation.segments.map((s) => `- [${s.unitName ?? 'note'}] ${s.text}`).join('\n') || '(no unit answered)';
        const uncovered = input.evaluation.uncovered.map((i) => `${i}: ${input.clauses[i]}`).join('\n') || '(none)';
        const completion = await provider.complete({
          system:
            'You write the connective prose of an answer whose factual parts come from verified rules. Never restate, reword or ' +
            'contradict the rule texts. Optionally write one short introductory sentence drawn only from the rule texts. For each ' +
            'uncovered part, write a brief, cautious general answer and say it is not backed by a verified rule.',
          messages: [{ role: 'user', content: `Question parts:\n${input.clauses.map((c, i) => `${i}: ${c}`).join('\n')}\n\nRule texts:\n${unitText}\n\nUncovered parts:\n${uncovered}` }],
          json: {
            name: 'prose',
            schema: {
              type: 'object',
              properties: {
                intro: { type: ['string', 'null'] },
                uncovered: { type: 'array', items: { type: 'object', properties: { part: { type: 'integer' }, answer: { type: 'string' } }, required: ['part', 'answer'], additionalProperties: false } },
              },
              required: ['intro', 'uncovered'],
              additionalProperties: false,
            },
          },
        });
        const out = completion.json as { intro?: unknown; uncovered?: unknown };
        if (!Array.isArray(out.uncovered)) throw new ProviderError(provider.name, 'malformed', 'the answer has no `uncovered` list');
        const result: Addition[] = [];
        if (typeof out.intro === 'string' && out.intro.trim()) {
          result.push({ clause: -1, text: out.intro.trim(), trustLevel: 'synthesized', unitId: null, unitName: null });
        }
        const answered = new Set<number>();
        for (const item of out.uncovered as { part?: unknown; answer?: unknown }[]) {
          if (typeof item.answer === 'string' && item.answer.trim() === '') continue; // a blank answer answers nothing
          if (typeof item.part !== 'number' || typeof item.answer !== 'string' || !input.evaluation.uncovered.includes(item.part) || answered.has(item.part)) {
            proseWarnings.push('prose: the model answered a part that was not asked or not uncovered; that text was dropped');
            continue;
          }
          answered.add(item.part);
          result.push({ clause: item.part, text: item.answer.trim(), trustLevel: 'neural', unitId: null, unitName: null });
        }
        // Parts the model left unanswered keep the local notice.
        for (const a of local(input)) if (!answered.has(a.clause)) result.push(a);
        return result;
      }, () => local(input));
      return { additions, warnings: proseWarnings };
    },
  };
}
