/**
 * Providers against real loopback HTTP servers that speak each wire format as documented
 * (OpenAI Chat Completions; Anthropic Messages API 2023-06-01): every test checks the request the
 * server received and answers with a full documented body, status and headers.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { Agent, MockAgent } from 'undici';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider, ProviderError, type CompletionRequest, type ProviderConfig } from './index.js';

const KEY = 'sk-proj-Zq81loopbackTESTkey7f3a';
const ANTHROPIC_KEY = 'sk-ant-api03-loopbackTESTkey-9b2e';

// ---------------------------------------------------------------- loopback servers

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}
/** One scripted answer; the last one repeats. `hang` never answers. */
type Answer = { status: number; headers?: Record<string, string>; body: unknown } | 'hang';

const servers: { close(): Promise<void> }[] = [];

async function loopback(...answers: Answer[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      const answer = answers[Math.min(received.length, answers.length) - 1];
      if (!answer || answer === 'hang') return;
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        ...answer.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** A port on which nothing listens. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const dispatcher = new Agent({ keepAliveTimeout: 1000 });
let waits: number[];
const sleep = async (ms: number) => {
  waits.push(ms);
};

beforeEach(() => {
  waits = [];
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await dispatcher.close();
});

function openai(url: string, over: Partial<ProviderConfig> = {}) {
  return createProvider({ provider: 'openai', model: 'gpt-4o-mini', apiKey: KEY, baseUrl: `${url}/v1`, ...over }, { dispatcher, sleep });
}
function anthropic(url: string, over: Partial<ProviderConfig> = {}) {
  return createProvider(
    { provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKey: ANTHROPIC_KEY, baseUrl: url, ...over },
    { dispatcher, sleep },
  );
}

/** The ProviderError a call rejects with; every one is checked for the API keys on the way. */
async function failure(call: Promise<unknown>): Promise<ProviderError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${inspect(err)}`);
  const everything = `${err.message}\n${err.stack ?? ''}\n${inspect(err, { depth: 8 })}`;
  expect(everything).not.toContain(KEY);
  expect(everything).not.toContain(ANTHROPIC_KEY);
  return err;
}

const ASK: CompletionRequest = {
  system: 'You answer questions about employment rules in one sentence.',
  messages: [{ role: 'user', content: 'How many vacation days after 12 years of service?' }],
  maxTokens: 256,
  temperature: 0,
};
const SCHEMA = {
  type: 'object',
  properties: { days: { type: 'integer' }, basis: { type: 'string' } },
  required: ['days', 'basis'],
  additionalProperties: false,
};
const ASK_JSON: CompletionRequest = { ...ASK, json: { name: 'vacation_answer', schema: SCHEMA } };

// ---------------------------------------------------------------- documented OpenAI bodies

const OPENAI_HEADERS = {
  'openai-processing-ms': '412',
  'openai-version': '2020-10-01',
  'x-request-id': 'req_7f3c1e0b9a8d4c2e8f6a5b4c3d2e1f0a',
  'x-ratelimit-limit-requests': '10000',
  'x-ratelimit-remaining-requests': '9999',
  'x-ratelimit-reset-requests': '6ms',
};

function chatCompletion(content: string | null, extra: { refusal?: string; finish_reason?: string } = {}) {
  return {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741570283,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: extra.refusal ?? null, annotations: [] },
        logprobs: null,
        finish_reason: extra.finish_reason ?? 'stop',
      },
    ],
    usage: {
      prompt_tokens: 36,
      completion_tokens: 14,
      total_tokens: 50,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_fc9f1d7035',
  };
}
const OPENAI_TEXT = chatCompletion('After 12 years of service an employee is entitled to 25 vacation days.');

function openaiError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}
const OPENAI_429 = openaiError(
  'Rate limit reached for gpt-4o-mini in organization org-Lm2nBvC8xq on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.',
  'requests',
  'rate_limit_exceeded',
);
const OPENAI_500 = openaiError('The server had an error while processing your request. Sorry about that!', 'server_error', null);
const OPENAI_401 = openaiError(
  'Incorrect API key provided: sk-proj-********************7f3a. You can find your API key at https://platform.openai.com/account/api-keys.',
  'invalid_request_error',
  'invalid_api_key',
);
const RATE_LIMITED_HEADERS = {
  'x-ratelimit-limit-requests': '3',
  'x-ratelimit-remaining-requests': '0',
  'x-ratelimit-reset-requests': '20s',
};

// ---------------------------------------------------------------- documented Anthropic bodies

const ANTHROPIC_HEADERS = {
  'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy',
  'anthropic-organization-id': '6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b',
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '49',
  'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:01Z',
};

function message(content: unknown[], stop_reason = 'end_turn') {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    content,
    model: 'claude-sonnet-4-20250514',
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 41, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 19, service_tier: 'standard' },
  };
}
const ANTHROPIC_TEXT = message([{ type: 'text', text: 'After 12 years of service an employee is entitled to 25 vacation days.' }]);
const ANTHROPIC_TOOL = message(
  [{ type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'vacation_answer', input: { days: 25, basis: 'Section 4(2)' } }],
  'tool_use',
);

function anthropicError(type: string, msg: string) {
  return { type: 'error', error: { type, message: msg }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' };
}
const ANTHROPIC_529 = anthropicError('overloaded_error', 'Overloaded');
const ANTHROPIC_429 = anthropicError(
  'rate_limit_error',
  'This request would exceed the rate limit for your organization (6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b) of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
);

// ---------------------------------------------------------------- OpenAI

describe('openai (Chat Completions)', () => {
  it('sends a documented request and reads a text completion', async () => {
    const srv = await loopback({ status: 200, headers: OPENAI_HEADERS, body: OPENAI_TEXT });
    const result = await openai(srv.url).complete(ASK);

    expect(result).toEqual({
      text: 'After 12 years of service an employee is entitled to 25 vacation days.',
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'openai',
      attempts: 1,
    });
    expect(srv.received).toHaveLength(1);
    const [req] = srv.received;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['x-api-key']).toBeUndefined();
    expect(req?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: ASK.system },
        { role: 'user', content: 'How many vacation days after 12 years of service?' },
      ],
      max_tokens: 256,
      stream: false,
      temperature: 0,
    });
  });

  it('asks for JSON with a strict json_schema response_format and parses the output', async () => {
    const srv = await loopback({ status: 200, headers: OPENAI_HEADERS, body: chatCompletion('{"days":25,"basis":"Section 4(2)"}') });
    const result = await openai(srv.url).complete(ASK_JSON);

    expect(result.json).toEqual({ days: 25, basis: 'Section 4(2)' });
    expect(result.text).toBe('{"days":25,"basis":"Section 4(2)"}');
    expect(srv.received[0]?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'vacation_answer', schema: SCHEMA, strict: true },
    });
  });

  it('reads JSON that a local model wrapped in a ```json fence', async () => {
    const srv = await loopback({ status: 200, body: chatCompletion('```json\n{"days": 25, "basis": "Section 4(2)"}\n```') });
    const result = await openai(srv.url).complete(ASK_JSON);
    expect(result.json).toEqual({ days: 25, basis: 'Section 4(2)' });
  });

  it('waits as long as retry-after says after a 429, then succeeds', async () => {
    const srv = await loopback(
      { status: 429, headers: { ...RATE_LIMITED_HEADERS, 'retry-after': '1' }, body: OPENAI_429 },
      { status: 200, headers: OPENAI_HEADERS, body: OPENAI_TEXT },
    );
    const result = await openai(srv.url).complete(ASK);
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([1000]);
    expect(srv.received).toHaveLength(2);
    expect(srv.received[1]?.body).toEqual(srv.received[0]?.body);
  });

  it('waits for the x-ratelimit reset when a 429 has no retry-after', async () => {
    const srv = await loopback(
      { status: 429, headers: { ...RATE_LIMITED_HEADERS, 'x-ratelimit-reset-requests': '1.5s' }, body: OPENAI_429 },
      { status: 200, body: OPENAI_TEXT },
    );
    await openai(srv.url).complete(ASK);
    expect(waits).toEqual([1500]);
  });

  it('backs off after a 500, then succeeds', async () => {
    const srv = await loopback({ status: 500, body: OPENAI_500 }, { status: 200, body: OPENAI_TEXT });
    const result = await openai(srv.url).complete(ASK);
    expect(result.attempts).toBe(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(375);
    expect(waits[0]).toBeLessThanOrEqual(500);
  });

  it('retries a proxy 502 with an HTML body', async () => {
    const srv = await loopback(
      { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
      { status: 200, body: OPENAI_TEXT },
    );
    expect((await openai(srv.url).complete(ASK)).attempts).toBe(2);
  });

  it('gives up as rate_limited with the status after maxRetries + 1 attempts', async () => {
    const srv = await loopback({ status: 429, headers: { ...RATE_LIMITED_HEADERS, 'retry-after': '2' }, body: OPENAI_429 });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, code: 'rate_limit_exceeded', attempts: 3, provider: 'openai' });
    expect(err.message).toMatch(/^openai: HTTP 429 rate_limit_exceeded: Rate limit reached for gpt-4o-mini/);
    expect(err.message).toMatch(/after 3 attempts\)$/);
    expect(srv.received).toHaveLength(3);
    expect(waits).toEqual([2000, 2000]);
  });

  it('gives up as http with the status when 5xx persists, honouring maxRetries', async () => {
    const srv = await loopback({ status: 503, body: openaiError('The engine is currently overloaded, please try again later.', 'server_error', null) });
    const err = await failure(openai(srv.url, { maxRetries: 1 }).complete(ASK));
    expect(err).toMatchObject({ kind: 'http', status: 503, code: 'server_error', attempts: 2 });
    expect(srv.received).toHaveLength(2);
  });

  it.each([
    [401, OPENAI_401, 'invalid_api_key'],
    [400, openaiError("Invalid schema for response_format 'vacation_answer': 'required' is missing 'basis'.", 'invalid_request_error', null, 'response_format'), 'invalid_request_error'],
    [403, openaiError('Project `proj_abc` does not have access to model `gpt-4o`', 'invalid_request_error', 'model_not_found'), 'model_not_found'],
    [404, openaiError('The model `gpt-5-nano` does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'), 'model_not_found'],
  ])('never retries HTTP %i', async (status, body, code) => {
    const srv = await loopback({ status, body });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'http', status, code, attempts: 1 });
    expect(srv.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry when retry-after asks for longer than 10 s', async () => {
    const srv = await loopback({ status: 429, headers: { 'retry-after': '30' }, body: OPENAI_429 });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'rate_limited', attempts: 1 });
    expect(err.message).toContain('not retried: the server asked to wait 30 s');
    expect(waits).toEqual([]);
  });

  it('does not retry when the wait would pass the deadline', async () => {
    const srv = await loopback({ status: 429, headers: { 'retry-after': '5' }, body: OPENAI_429 });
    const err = await failure(openai(srv.url, { timeoutMs: 2000 }).complete(ASK));
    expect(err).toMatchObject({ kind: 'rate_limited', attempts: 1 });
    expect(err.message).toContain('would pass the 2000 ms deadline');
    expect(srv.received).toHaveLength(1);
  });

  it('times out within timeoutMs when the server never answers, without retrying', async () => {
    const srv = await loopback('hang');
    const started = Date.now();
    const err = await failure(openai(srv.url, { timeoutMs: 200 }).complete(ASK));
    const elapsed = Date.now() - started;
    expect(err).toMatchObject({ kind: 'timeout', attempts: 1 });
    expect(err.message).toBe('openai: no complete response within 200 ms');
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
    expect(srv.received).toHaveLength(1);
  });

  it('reports a refused connection as network after retrying it', async () => {
    const url = await closedPort();
    const err = await failure(openai(url).complete(ASK));
    expect(err).toMatchObject({ kind: 'network', attempts: 3 });
    expect(err.message).toMatch(/could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(waits).toHaveLength(2);
  });

  it('reports a 200 whose body is not JSON as malformed, without retrying', async () => {
    const srv = await loopback({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>Ollama is running</title>' });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'malformed', status: 200, attempts: 1 });
    expect(err.message).toContain('body is not JSON (text/html; charset=utf-8');
    expect(srv.received).toHaveLength(1);
  });

  it.each([
    ['no choices', { ...OPENAI_TEXT, choices: [] }, /no choices\[0\]\.message/],
    ['a null content', chatCompletion(null, { finish_reason: 'tool_calls' }), /content is not a string \(finish_reason tool_calls\)/],
    ['a refusal', chatCompletion(null, { refusal: "I'm sorry, I can't help with that." }), /the model refused: I'm sorry/],
  ])('reports %s as malformed', async (_label, body, message) => {
    const srv = await loopback({ status: 200, body });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err.kind).toBe('malformed');
    expect(err.message).toMatch(message);
  });

  it.each([
    ['JSON output that does not parse', chatCompletion('{"days": 25, "basis": "Section 4(', { finish_reason: 'length' }), /does not parse \(finish_reason length\)/],
    ['JSON output that is not an object', chatCompletion('[25, "Section 4(2)"]'), /is not an object/],
  ])('reports %s as malformed, without retrying', async (_label, body, message) => {
    const srv = await loopback({ status: 200, body });
    const err = await failure(openai(srv.url).complete(ASK_JSON));
    expect(err).toMatchObject({ kind: 'malformed', attempts: 1 });
    expect(err.message).toMatch(message);
    expect(srv.received).toHaveLength(1);
  });

  it('sends no authorization header to a local server configured without a key (Ollama, vLLM, llama.cpp)', async () => {
    const srv = await loopback({ status: 200, body: { ...OPENAI_TEXT, model: 'llama3.2' } });
    const result = await openai(srv.url, { apiKey: null, model: 'llama3.2' }).complete(ASK);
    expect(result.model).toBe('llama3.2');
    expect(srv.received[0]?.headers.authorization).toBeUndefined();
  });

  it('uses https://api.openai.com/v1/chat/completions and max_completion_tokens by default', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    let sent: Record<string, unknown> = {};
    let auth: unknown;
    mock
      .get('https://api.openai.com')
      .intercept({ path: '/v1/chat/completions', method: 'POST' })
      .reply(200, (opts) => {
        sent = JSON.parse(String(opts.body)) as Record<string, unknown>;
        auth = (opts.headers as Record<string, string>).authorization;
        return OPENAI_TEXT;
      });
    const provider = createProvider({ provider: 'openai', model: 'gpt-4o-mini', apiKey: KEY }, { dispatcher: mock, sleep });
    await provider.complete({ ...ASK, maxTokens: undefined });
    expect(sent.max_completion_tokens).toBe(1024);
    expect(sent).not.toHaveProperty('max_tokens');
    expect(auth).toBe(`Bearer ${KEY}`);
    await mock.close();
  });

  it('rejects with the caller’s reason when the caller aborts', async () => {
    const srv = await loopback('hang');
    const controller = new AbortController();
    const call = openai(srv.url).complete(ASK, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('request cancelled')), 50);
    await expect(call).rejects.toThrow('request cancelled');
  });
});

// ---------------------------------------------------------------- Anthropic

describe('anthropic (Messages API)', () => {
  it('sends a documented request and reads a text message', async () => {
    const srv = await loopback({ status: 200, headers: ANTHROPIC_HEADERS, body: ANTHROPIC_TEXT });
    const result = await anthropic(srv.url).complete({ ...ASK, maxTokens: undefined });

    expect(result).toEqual({
      text: 'After 12 years of service an employee is entitled to 25 vacation days.',
      model: 'claude-sonnet-4-20250514',
      provider: 'anthropic',
      attempts: 1,
    });
    const [req] = srv.received;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/messages');
    expect(req?.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(req?.headers['anthropic-version']).toBe('2023-06-01');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 1024,
      system: ASK.system,
      messages: [{ role: 'user', content: 'How many vacation days after 12 years of service?' }],
      temperature: 0,
    });
  });

  it('joins several text blocks', async () => {
    const srv = await loopback({
      status: 200,
      body: message([
        { type: 'text', text: 'After 12 years, ' },
        { type: 'text', text: '25 days.' },
      ]),
    });
    expect((await anthropic(srv.url).complete(ASK)).text).toBe('After 12 years, 25 days.');
  });

  it('asks for JSON with a forced tool and reads the tool_use input', async () => {
    const srv = await loopback({ status: 200, headers: ANTHROPIC_HEADERS, body: ANTHROPIC_TOOL });
    const result = await anthropic(srv.url).complete(ASK_JSON);

    expect(result.json).toEqual({ days: 25, basis: 'Section 4(2)' });
    expect(JSON.parse(result.text)).toEqual({ days: 25, basis: 'Section 4(2)' });
    const body = srv.received[0]?.body;
    expect(body?.tools).toEqual([{ name: 'vacation_answer', description: expect.any(String), input_schema: SCHEMA }]);
    expect(body?.tool_choice).toEqual({ type: 'tool', name: 'vacation_answer' });
  });

  it('backs off after a 529 overloaded_error, then succeeds', async () => {
    const srv = await loopback({ status: 529, headers: { 'x-should-retry': 'true' }, body: ANTHROPIC_529 }, { status: 200, body: ANTHROPIC_TEXT });
    const result = await anthropic(srv.url).complete(ASK);
    expect(result.attempts).toBe(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(375);
    expect(waits[0]).toBeLessThanOrEqual(500);
  });

  it('waits as long as retry-after says after a 429 rate_limit_error, then succeeds', async () => {
    const srv = await loopback(
      { status: 429, headers: { 'retry-after': '2', 'anthropic-ratelimit-requests-remaining': '0' }, body: ANTHROPIC_429 },
      { status: 200, body: ANTHROPIC_TEXT },
    );
    const result = await anthropic(srv.url).complete(ASK);
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([2000]);
  });

  it('gives up on a persistent 529 as http 529 overloaded_error', async () => {
    const srv = await loopback({ status: 529, body: ANTHROPIC_529 });
    const err = await failure(anthropic(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'http', status: 529, code: 'overloaded_error', attempts: 3, provider: 'anthropic' });
    expect(err.message).toBe('anthropic: HTTP 529 overloaded_error: Overloaded (after 3 attempts)');
  });

  it('gives up on a persistent 429 as rate_limited', async () => {
    const srv = await loopback({ status: 429, headers: { 'retry-after': '1' }, body: ANTHROPIC_429 });
    const err = await failure(anthropic(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, code: 'rate_limit_error', attempts: 3 });
  });

  it('never retries 401 authentication_error', async () => {
    const srv = await loopback({ status: 401, body: anthropicError('authentication_error', 'invalid x-api-key') });
    const err = await failure(anthropic(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'http', status: 401, code: 'authentication_error', attempts: 1 });
    expect(err.message).toBe('anthropic: HTTP 401 authentication_error: invalid x-api-key');
    expect(srv.received).toHaveLength(1);
  });

  it('honours x-should-retry: false on a 5xx', async () => {
    const srv = await loopback({ status: 500, headers: { 'x-should-retry': 'false' }, body: anthropicError('api_error', 'Internal server error') });
    const err = await failure(anthropic(srv.url).complete(ASK));
    expect(err).toMatchObject({ kind: 'http', status: 500, attempts: 1 });
  });

  it('times out within timeoutMs when the server never answers', async () => {
    const srv = await loopback('hang');
    const started = Date.now();
    const err = await failure(anthropic(srv.url, { timeoutMs: 200 }).complete(ASK));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['no tool_use block', ASK_JSON, message([{ type: 'text', text: '25 days.' }], 'end_turn'), /no tool_use block for "vacation_answer" \(stop_reason end_turn\)/],
    ['a tool_use input that is not an object', ASK_JSON, message([{ type: 'tool_use', id: 'toolu_01', name: 'vacation_answer', input: 'days: 25' }], 'tool_use'), /input is not an object/],
    ['no text block', ASK, message([], 'refusal'), /no text block \(stop_reason refusal\)/],
    ['a body that is not a message', ASK, { type: 'completion', completion: '25 days.' }, /not a message with a content array/],
  ])('reports %s as malformed', async (_label, req, body, text) => {
    const srv = await loopback({ status: 200, body });
    const err = await failure(anthropic(srv.url).complete(req));
    expect(err).toMatchObject({ kind: 'malformed', attempts: 1 });
    expect(err.message).toMatch(text);
  });

  it('accepts a base URL that ends in /v1', async () => {
    const srv = await loopback({ status: 200, body: ANTHROPIC_TEXT });
    await anthropic(`${srv.url}/v1/`).complete(ASK);
    expect(srv.received[0]?.path).toBe('/v1/messages');
  });

  it('uses https://api.anthropic.com/v1/messages by default', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock.get('https://api.anthropic.com').intercept({ path: '/v1/messages', method: 'POST' }).reply(200, ANTHROPIC_TEXT);
    const provider = createProvider({ provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKey: ANTHROPIC_KEY }, { dispatcher: mock, sleep });
    expect((await provider.complete(ASK)).provider).toBe('anthropic');
    await mock.close();
  });
});

// ---------------------------------------------------------------- configuration

describe('configuration', () => {
  /** A dispatcher that fails the test if anything is sent. */
  function noNetwork() {
    const mock = new MockAgent();
    mock.disableNetConnect();
    return mock;
  }

  it.each(['openai', 'anthropic'] as const)('%s: a missing API key for the hosted API is a config error and nothing is sent', async (provider) => {
    const mock = noNetwork();
    const p = createProvider({ provider, model: 'm', apiKey: null }, { dispatcher: mock, sleep });
    const err = await failure(p.complete(ASK));
    expect(err).toMatchObject({ kind: 'config', provider, attempts: 0 });
    expect(err.message).toBe(`${provider}: no API key is configured (settings.llm.providers.${provider}.apiKey)`);
    await mock.close();
  });

  it.each([
    ['an empty model', { model: ' ' }, 'no model is configured'],
    ['a baseUrl that is not a URL', { baseUrl: 'localhost:11434' }, 'baseUrl must be an http or https URL'],
    ['a relative baseUrl', { baseUrl: '/v1' }, 'baseUrl is not a valid URL'],
    ['credentials in the baseUrl', { baseUrl: `http://user:${KEY}@127.0.0.1:1/v1` }, 'baseUrl must not embed credentials'],
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs must be a positive number'],
    ['too many retries', { maxRetries: 11 }, 'maxRetries must be an integer from 0 to 10'],
  ])('%s is a config error', async (_label, over, text) => {
    const mock = noNetwork();
    const p = createProvider({ provider: 'openai', model: 'gpt-4o-mini', apiKey: KEY, ...over }, { dispatcher: mock, sleep });
    const err = await failure(p.complete(ASK));
    expect(err).toMatchObject({ kind: 'config', attempts: 0 });
    expect(err.message).toBe(`openai: ${text}`);
    await mock.close();
  });

  it.each([
    ['no messages', { ...ASK, messages: [] }, 'a completion needs at least one message'],
    ['a bad schema name', { ...ASK, json: { name: 'vacation answer', schema: SCHEMA } }, 'json.name must match'],
    ['a schema whose root is not an object', { ...ASK, json: { name: 'days', schema: { type: 'integer' } } }, "json.schema must have type 'object'"],
    ['a fractional maxTokens', { ...ASK, maxTokens: 1.5 }, 'maxTokens must be a positive integer'],
  ])('a request with %s is a config error', async (_label, req, text) => {
    const mock = noNetwork();
    const err = await failure(createProvider({ provider: 'anthropic', model: 'm', apiKey: ANTHROPIC_KEY }, { dispatcher: mock }).complete(req));
    expect(err.kind).toBe('config');
    expect(err.message).toContain(text);
    await mock.close();
  });

  it('exposes its name and model', () => {
    const p = createProvider({ provider: 'anthropic', model: 'claude-sonnet-4-20250514', apiKey: null });
    expect([p.name, p.model]).toEqual(['anthropic', 'claude-sonnet-4-20250514']);
  });
});

// ---------------------------------------------------------------- security

describe('the API key never appears in an error', () => {
  it('openai: a 401 that echoes the whole key', async () => {
    const srv = await loopback({ status: 401, body: openaiError(`Incorrect API key provided: ${KEY}.`, 'invalid_request_error', 'invalid_api_key') });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err.message).toBe('openai: HTTP 401 invalid_api_key: Incorrect API key provided: [redacted].');
  });

  it('anthropic: a 400 that echoes the key, and a refusal that quotes it', async () => {
    const srv = await loopback(
      { status: 400, body: anthropicError('invalid_request_error', `x-api-key ${ANTHROPIC_KEY} is not valid for this workspace`) },
    );
    const err = await failure(anthropic(srv.url).complete(ASK));
    expect(err.message).toContain('x-api-key [redacted] is not valid');
  });

  it('openai: a malformed answer that quotes the key', async () => {
    const srv = await loopback({ status: 200, body: chatCompletion(null, { refusal: `I will not reveal ${KEY}.` }) });
    const err = await failure(openai(srv.url).complete(ASK));
    expect(err.message).toBe('openai: the model refused: I will not reveal [redacted].');
  });

  it('network errors and their causes', async () => {
    const err = await failure(openai(await closedPort(), { maxRetries: 0 }).complete(ASK));
    expect(err.kind).toBe('network');
    expect(err.cause).toBeDefined();
  });

  it('timeouts', async () => {
    const srv = await loopback('hang');
    expect((await failure(anthropic(srv.url, { timeoutMs: 100 }).complete(ASK))).kind).toBe('timeout');
  });
});
