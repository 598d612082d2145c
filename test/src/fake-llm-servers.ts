/**
 * Loopback model servers for end-to-end tests: a node:http server on 127.0.0.1 (ephemeral port)
 * that speaks one provider's wire format as documented — OpenAI Chat Completions
 * (`POST /v1/chat/completions`) or the Anthropic Messages API 2023-06-01 (`POST /v1/messages`).
 *
 * Every request is checked against that wire format (method, path, headers, body shape; for
 * OpenAI's strict `json_schema`, the strict-mode rules on the schema) and any deviation is kept in
 * `problems`. A test decides what the "model" says through `reply`, which sees the request decoded
 * into a provider-neutral {@link ModelCall}; the answer is encoded back into the provider's full,
 * realistic response body (the bodies of server/src/inference/providers/providers.test.ts).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProviderName = 'openai' | 'anthropic';

/** One HTTP request as the loopback server received it. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body text. */
  raw: string;
  /** The parsed body (`{}` when it did not parse: that is a problem too). */
  body: Record<string, unknown>;
  /** When it arrived (Date.now()). */
  at: number;
}

/** A request decoded independently of the provider. */
export interface ModelCall {
  /** 1-based number of this request on this server since the last {@link FakeLlm.reset}. */
  n: number;
  model: string;
  system: string;
  /** The user turn (the pipeline sends exactly one). */
  user: string;
  /** The structured-output request: OpenAI `json_schema` / Anthropic forced tool. */
  json: { name: string; schema: Record<string, unknown> } | null;
  temperature: number | undefined;
  maxTokens: number | undefined;
}

/**
 * What the model server answers:
 * - `{ json }`: the model's structured output, encoded as the provider does (message content / `tool_use` input);
 * - `{ content }`: a raw assistant message (OpenAI: `message.content`; Anthropic: one text block), e.g. broken JSON;
 * - `{ status, headers?, body }`: a raw HTTP answer (errors, rate limits, bodies that are not JSON);
 * - `'hang'`: never answer.
 */
export type Reply =
  | { json: Record<string, unknown> }
  | { content: string }
  | { status: number; headers?: Record<string, string>; body: unknown }
  | 'hang';

export interface FakeLlm {
  readonly provider: ProviderName;
  /** The base URL to configure (`settings.llm.providers.<provider>.baseUrl`). */
  readonly baseUrl: string;
  /** Every request since the last reset. */
  readonly received: Received[];
  /** Wire-format deviations seen since the last reset (should stay empty). */
  readonly problems: string[];
  /** How the model answers; replaced by tests. */
  reply: (call: ModelCall) => Reply | Promise<Reply>;
  /** Forgets the requests and problems seen; answers with `reply` from now on. */
  reset(reply?: (call: ModelCall) => Reply | Promise<Reply>): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- documented bodies

export const OPENAI_HEADERS: Record<string, string> = {
  'openai-organization': 'user-lemmatests',
  'openai-processing-ms': '412',
  'openai-version': '2020-10-01',
  'x-request-id': 'req_7f3c1e0b9a8d4c2e8f6a5b4c3d2e1f0a',
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-limit-tokens': '200000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-remaining-tokens': '199612',
  'x-ratelimit-reset-requests': '6ms',
  'x-ratelimit-reset-tokens': '116ms',
};

export const ANTHROPIC_HEADERS: Record<string, string> = {
  'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy',
  'anthropic-organization-id': '6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b',
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '49',
  'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:01Z',
};

/** OpenAI reports the dated snapshot that served an alias. */
const SNAPSHOTS: Record<string, string> = { 'gpt-4o-mini': 'gpt-4o-mini-2024-07-18', 'gpt-4o': 'gpt-4o-2024-08-06' };

export function chatCompletion(model: string, content: string | null, extra: { refusal?: string; finish_reason?: string } = {}) {
  return {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741570283,
    model: SNAPSHOTS[model] ?? model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: extra.refusal ?? null, annotations: [] },
        logprobs: null,
        finish_reason: extra.finish_reason ?? 'stop',
      },
    ],
    usage: {
      prompt_tokens: 236,
      completion_tokens: 54,
      total_tokens: 290,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_fc9f1d7035',
  };
}

export function anthropicMessage(model: string, content: unknown[], stopReason = 'end_turn') {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    content,
    model,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 541, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 87, service_tier: 'standard' },
  };
}

export const openaiError = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });
export const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' });

/** A documented 500 in the provider's error format. */
export function serverError(provider: ProviderName): Reply {
  return provider === 'openai'
    ? { status: 500, headers: { 'x-request-id': 'req_5a1b2c3d4e5f60718293a4b5c6d7e8f9' }, body: openaiError('The server had an error while processing your request. Sorry about that!', 'server_error', null) }
    : { status: 500, headers: { 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fz' }, body: anthropicError('api_error', 'Internal server error') };
}

/** A documented 429 asking to retry after `seconds`. */
export function rateLimited(provider: ProviderName, seconds: number): Reply {
  return provider === 'openai'
    ? {
        status: 429,
        headers: { 'retry-after': String(seconds), 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': `${seconds}s` },
        body: openaiError(
          `Rate limit reached for gpt-4o-mini in organization org-Lm2nBvC8xq on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${seconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          'requests',
          'rate_limit_exceeded',
        ),
      }
    : {
        status: 429,
        headers: { 'retry-after': String(seconds), 'anthropic-ratelimit-requests-limit': '50', 'anthropic-ratelimit-requests-remaining': '0' },
        body: anthropicError(
          'rate_limit_error',
          'This request would exceed the rate limit for your organization (6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b) of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
        ),
      };
}

/** A documented 401 whose message quotes the key it was given (as some compatible servers do). */
export function unauthorized(provider: ProviderName, key: string): Reply {
  return provider === 'openai'
    ? { status: 401, body: openaiError(`Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key') }
    : { status: 401, body: anthropicError('authentication_error', `invalid x-api-key: ${key}`) };
}

// ---------------------------------------------------------------- wire checks

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function unexpectedKeys(where: string, value: Record<string, unknown>, allowed: readonly string[], problems: string[]): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) problems.push(`${where}: unexpected key ${key}`);
}

/**
 * OpenAI structured outputs in strict mode: every object lists all its properties in `required`
 * and sets `additionalProperties: false`, recursively.
 */
function checkStrictSchema(schema: unknown, where: string, problems: string[]): void {
  if (!isObject(schema)) return void problems.push(`${where}: schema is not an object`);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    const props = isObject(schema.properties) ? schema.properties : {};
    if (schema.additionalProperties !== false) problems.push(`${where}: strict mode needs additionalProperties: false`);
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(props).filter((k) => !required.includes(k));
    if (missing.length > 0) problems.push(`${where}: strict mode needs every property required (missing ${missing.join(', ')})`);
    for (const [k, v] of Object.entries(props)) checkStrictSchema(v, `${where}.properties.${k}`, problems);
  }
  if (types.includes('array')) checkStrictSchema(schema.items, `${where}.items`, problems);
}

function checkCommonHeaders(h: IncomingHttpHeaders, problems: string[]): void {
  if (h['content-type'] !== 'application/json') problems.push(`content-type is ${String(h['content-type'])}`);
  if (h.accept !== 'application/json') problems.push(`accept is ${String(h.accept)}`);
  if (!h['content-length'] && h['transfer-encoding'] !== 'chunked') problems.push('no content-length');
}

function decodeOpenAi(req: Received, problems: string[]): Omit<ModelCall, 'n'> {
  if (req.method !== 'POST') problems.push(`method ${req.method}`);
  if (req.path !== '/v1/chat/completions') problems.push(`path ${req.path}`);
  checkCommonHeaders(req.headers, problems);
  if (req.headers['x-api-key'] !== undefined) problems.push('openai: x-api-key header sent');
  if (req.headers['anthropic-version'] !== undefined) problems.push('openai: anthropic-version header sent');
  const b = req.body;
  unexpectedKeys('body', b, ['model', 'messages', 'max_tokens', 'max_completion_tokens', 'stream', 'temperature', 'response_format'], problems);
  if (typeof b.model !== 'string' || b.model === '') problems.push('body.model is not a string');
  if (b.stream !== false) problems.push('body.stream is not false');
  // A compatible server (not api.openai.com) gets max_tokens.
  if (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1) problems.push('body.max_tokens is not a positive integer');
  if ('max_completion_tokens' in b) problems.push('body.max_completion_tokens sent to a compatible server');
  if (b.temperature !== undefined && (typeof b.temperature !== 'number' || b.temperature < 0 || b.temperature > 2)) problems.push('body.temperature out of range');
  const messages = Array.isArray(b.messages) ? b.messages : [];
  if (messages.length !== 2) problems.push(`body.messages has ${messages.length} messages, expected system + user`);
  const [sys, user] = messages as Record<string, unknown>[];
  if (!isObject(sys) || sys.role !== 'system' || typeof sys.content !== 'string') problems.push('body.messages[0] is not a system message');
  if (!isObject(user) || user.role !== 'user' || typeof user.content !== 'string') problems.push('body.messages[1] is not a user message');
  for (const [i, m] of messages.entries()) if (isObject(m)) unexpectedKeys(`body.messages[${i}]`, m, ['role', 'content'], problems);
  let json: ModelCall['json'] = null;
  if (b.response_format !== undefined) {
    const rf = b.response_format;
    if (!isObject(rf) || rf.type !== 'json_schema' || !isObject(rf.json_schema)) problems.push('body.response_format is not a json_schema format');
    else {
      unexpectedKeys('body.response_format', rf, ['type', 'json_schema'], problems);
      const js = rf.json_schema;
      unexpectedKeys('body.response_format.json_schema', js, ['name', 'schema', 'strict', 'description'], problems);
      if (typeof js.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(js.name)) problems.push('json_schema.name is not a valid name');
      if (js.strict !== true) problems.push('json_schema.strict is not true');
      checkStrictSchema(js.schema, 'json_schema.schema', problems);
      if (!isObject(js.schema) || js.schema.type !== 'object') problems.push("json_schema.schema's root is not an object");
      json = { name: String(js.name), schema: isObject(js.schema) ? js.schema : {} };
    }
  }
  return {
    model: String(b.model),
    system: isObject(sys) ? String(sys.content) : '',
    user: isObject(user) ? String(user.content) : '',
    json,
    temperature: typeof b.temperature === 'number' ? b.temperature : undefined,
    maxTokens: typeof b.max_tokens === 'number' ? b.max_tokens : undefined,
  };
}

function decodeAnthropic(req: Received, problems: string[]): Omit<ModelCall, 'n'> {
  if (req.method !== 'POST') problems.push(`method ${req.method}`);
  if (req.path !== '/v1/messages') problems.push(`path ${req.path}`);
  checkCommonHeaders(req.headers, problems);
  if (req.headers['anthropic-version'] !== '2023-06-01') problems.push(`anthropic-version is ${String(req.headers['anthropic-version'])}`);
  if (req.headers.authorization !== undefined) problems.push('anthropic: authorization header sent');
  const b = req.body;
  unexpectedKeys('body', b, ['model', 'max_tokens', 'system', 'messages', 'temperature', 'tools', 'tool_choice'], problems);
  if (typeof b.model !== 'string' || b.model === '') problems.push('body.model is not a string');
  if (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1) problems.push('body.max_tokens is not a positive integer');
  if (b.system !== undefined && typeof b.system !== 'string') problems.push('body.system is not a string');
  if (b.temperature !== undefined && (typeof b.temperature !== 'number' || b.temperature < 0 || b.temperature > 1)) problems.push('body.temperature out of range');
  const messages = Array.isArray(b.messages) ? b.messages : [];
  if (messages.length !== 1) problems.push(`body.messages has ${messages.length} messages, expected one user turn`);
  const [user] = messages as Record<string, unknown>[];
  if (!isObject(user) || user.role !== 'user' || typeof user.content !== 'string') problems.push('body.messages[0] is not a user message');
  for (const [i, m] of messages.entries()) if (isObject(m)) unexpectedKeys(`body.messages[${i}]`, m, ['role', 'content'], problems);
  let json: ModelCall['json'] = null;
  if (b.tools !== undefined || b.tool_choice !== undefined) {
    const tools = Array.isArray(b.tools) ? b.tools : [];
    const [tool] = tools as Record<string, unknown>[];
    if (tools.length !== 1 || !isObject(tool)) problems.push('body.tools is not one tool');
    else {
      unexpectedKeys('body.tools[0]', tool, ['name', 'description', 'input_schema'], problems);
      if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push('tools[0].name is not a valid name');
      if (typeof tool.description !== 'string') problems.push('tools[0].description is not a string');
      if (!isObject(tool.input_schema) || tool.input_schema.type !== 'object') problems.push("tools[0].input_schema's root is not an object");
      const choice = b.tool_choice;
      if (!isObject(choice) || choice.type !== 'tool' || choice.name !== tool.name) problems.push('body.tool_choice does not force the tool');
      json = { name: String(tool.name), schema: isObject(tool.input_schema) ? tool.input_schema : {} };
    }
  }
  return {
    model: String(b.model),
    system: typeof b.system === 'string' ? b.system : '',
    user: isObject(user) ? String(user.content) : '',
    json,
    temperature: typeof b.temperature === 'number' ? b.temperature : undefined,
    maxTokens: typeof b.max_tokens === 'number' ? b.max_tokens : undefined,
  };
}

/** A model reply encoded as the provider's full HTTP answer. */
function encode(provider: ProviderName, call: Omit<ModelCall, 'n'>, reply: Exclude<Reply, 'hang'>): { status: number; headers: Record<string, string>; body: unknown } {
  if ('status' in reply) return { status: reply.status, headers: reply.headers ?? {}, body: reply.body };
  if (provider === 'openai') {
    const content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;
    return { status: 200, headers: OPENAI_HEADERS, body: chatCompletion(call.model, content) };
  }
  if ('json' in reply) {
    const block = { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: call.json?.name ?? 'answer', input: reply.json };
    return { status: 200, headers: ANTHROPIC_HEADERS, body: anthropicMessage(call.model, [block], 'tool_use') };
  }
  return { status: 200, headers: ANTHROPIC_HEADERS, body: anthropicMessage(call.model, [{ type: 'text', text: reply.content }]) };
}

/** Starts a loopback model server for `provider`; close it when done. */
export async function startFakeLlm(provider: ProviderName, reply: FakeLlm['reply'] = () => ({ status: 503, body: 'no reply configured' })): Promise<FakeLlm> {
  const received: Received[] = [];
  const problems: string[] = [];
  const decode = provider === 'openai' ? decodeOpenAi : decodeAnthropic;
  const fake: FakeLlm = {
    provider,
    baseUrl: '',
    received,
    problems,
    reply,
    reset(next) {
      received.length = 0;
      problems.length = 0;
      if (next) fake.reply = next;
    },
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          const parsed: unknown = JSON.parse(raw);
          if (isObject(parsed)) body = parsed;
          else problems.push('the request body is not a JSON object');
        } catch {
          problems.push('the request body is not JSON');
        }
        const entry: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, at: Date.now() };
        received.push(entry);
        const call = decode(entry, problems);
        const answer = await fake.reply({ ...call, n: received.length });
        if (answer === 'hang') return; // the socket stays open until the client gives up
        const { status, headers, body: out } = encode(provider, call, answer);
        const text = typeof out === 'string' ? out : JSON.stringify(out);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          date: new Date().toUTCString(),
          ...headers,
        });
        res.end(text);
      })().catch((err: unknown) => {
        problems.push(`fake server error: ${String(err)}`);
        res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // OpenAI-compatible base URLs carry /v1; Anthropic's is the host (the client appends /v1/messages).
  (fake as { baseUrl: string }).baseUrl = provider === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** A base URL on 127.0.0.1 where nothing listens (connection refused). */
export async function closedBaseUrl(provider: ProviderName): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return provider === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
}

/** The parts a prose request lists under "Uncovered parts:", by index. */
export function uncoveredParts(user: string): { part: number; text: string }[] {
  const section = user.split('Uncovered parts:\n')[1] ?? '';
  return section
    .split('\n')
    .map((line) => line.match(/^(\d+): (.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ part: Number(m[1]), text: m[2]! }));
}
