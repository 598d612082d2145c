import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { ProviderError, type ProviderName } from './model-provider.js';

/** Statuses worth another attempt: rate limits, server errors, gateway failures, Anthropic's 529 overload. */
const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);
/** Transient connection failures; others (DNS not found, TLS) fail at once. */
const RETRYABLE_NETWORK: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The longest server-requested wait we honour; a longer `retry-after` ends the call instead. */
export const MAX_RETRY_AFTER_MS = 10_000;
const BASE_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_MESSAGE_CHARS = 300;

let shared: Agent | undefined;

/** One keep-alive Agent for the process; undici keeps a connection pool per origin inside it. */
export function sharedDispatcher(): Dispatcher {
  shared ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 32 });
  return shared;
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Go-style durations as in OpenAI's `x-ratelimit-reset-*` headers (`1s`, `6m0s`, `20ms`, `1h2m3.5s`), in ms. */
export function parseDuration(text: string | undefined): number | undefined {
  const m = text?.trim().match(/^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/);
  if (!m || !text?.trim() || m.slice(1).every((g) => g === undefined)) return undefined;
  const [h, min, s, ms] = m.slice(1).map((g) => Number(g ?? 0)) as [number, number, number, number];
  return Math.round(((h * 60 + min) * 60 + s) * 1000 + ms);
}

/**
 * The wait a response asks for, in ms: `retry-after-ms`, else `retry-after` (seconds or an HTTP
 * date), else — when a quota is at 0 — OpenAI's `x-ratelimit-reset-requests` / `-tokens`.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = header(headers, 'retry-after')?.trim();
  if (after) {
    if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
    const at = Date.parse(after);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const resets = (['requests', 'tokens'] as const)
    .filter((quota) => header(headers, `x-ratelimit-remaining-${quota}`) === '0')
    .map((quota) => parseDuration(header(headers, `x-ratelimit-reset-${quota}`)))
    .filter((v): v is number => v !== undefined);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

/** Exponential backoff with jitter for retry number `retry` (0-based): 500 ms, 1 s, 2 s… up to 8 s, minus up to 25 %. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  return Math.min(BASE_BACKOFF_MS * 2 ** retry, MAX_BACKOFF_MS) * (1 - random() * 0.25);
}

/** Removes the API key from text that may echo it (provider error messages do). */
export function scrub(text: string, secret: string | null): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

/** Bounds text a provider wrote (an error message, a refusal); redact before clipping so no key fragment survives. */
export function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** The provider's code and message from an error body: OpenAI/Ollama `{ error: { message, type, code } }`, Anthropic `{ type: 'error', error: { type, message } }`, vLLM `{ message, type }`. */
function describeErrorBody(text: string): { code?: string; message?: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof body !== 'object' || body === null) return {};
  const { error, message, type } = body as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    return { code: str(e.code) ?? str(e.type), message: str(e.message) };
  }
  if (typeof error === 'string') return { message: error };
  return { code: str(type), message: str(message) };
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: { code?: unknown }[] } | null;
  const code = e?.code ?? e?.cause?.code ?? e?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

class BodyTooLarge extends Error {}

async function readText(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge(`response body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One JSON POST with its retry policy. */
export interface PostOptions {
  provider: ProviderName;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  /** Deadline for the whole call: every attempt and every wait between attempts. */
  timeoutMs: number;
  maxRetries: number;
  dispatcher: Dispatcher;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  signal?: AbortSignal | undefined;
  /** The API key, scrubbed from every error message. */
  secret: string | null;
}

/** The parsed JSON of a 2xx answer and the attempts it took. */
export interface PostResult {
  body: unknown;
  attempts: number;
}

/** A failed attempt, before it becomes the {@link ProviderError} thrown. */
interface Failure {
  kind: ProviderError['kind'];
  message: string;
  status?: number;
  code?: string;
  cause?: unknown;
  retryable: boolean;
  /** The wait the server asked for, in ms. */
  hint?: number | undefined;
}

/**
 * POSTs JSON and returns the parsed 2xx body. Retries 429/500/502/503/504/529 and transient
 * connection errors with backoff (or the server's `retry-after`, up to {@link MAX_RETRY_AFTER_MS}),
 * never other statuses, timeouts or malformed bodies; gives up early when a wait would pass the deadline.
 */
export async function postJson(o: PostOptions): Promise<PostResult> {
  const started = Date.now();
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([deadline, o.signal]) : deadline;
  const sleep = o.sleep ?? ((ms: number) => delay(ms, undefined, { signal }));
  const payload = JSON.stringify(o.body);
  const toError = (f: Omit<Failure, 'retryable'>, attempts: number, note?: string) =>
    new ProviderError(o.provider, f.kind, scrub(note ? `${f.message} (${note})` : f.message, o.secret), {
      attempts,
      ...(f.status !== undefined ? { status: f.status } : {}),
      ...(f.code !== undefined ? { code: f.code } : {}),
      ...(f.cause !== undefined ? { cause: f.cause } : {}),
    });
  const timedOut = (attempts: number) => toError({ kind: 'timeout', message: `no complete response within ${o.timeoutMs} ms` }, attempts);
  const callerAborted = () => o.signal?.aborted === true;

  for (let attempt = 1; ; attempt++) {
    let failure: Failure;
    try {
      const res = await request(o.url, {
        method: 'POST',
        headers: o.headers,
        body: payload,
        dispatcher: o.dispatcher,
        signal,
        headersTimeout: o.timeoutMs,
        bodyTimeout: o.timeoutMs,
      });
      const text = await readText(res.body);
      const status = res.statusCode;
      if (status >= 200 && status < 300) {
        try {
          return { body: JSON.parse(text), attempts: attempt };
        } catch {
          const type = header(res.headers, 'content-type') ?? 'no content-type';
          const message = `HTTP ${status} body is not JSON (${type}, ${text.length} characters)`;
          throw toError({ kind: 'malformed', message, status }, attempt);
        }
      }
      const described = describeErrorBody(text);
      const code = described.code === undefined ? undefined : clip(scrub(described.code, o.secret));
      const said = described.message === undefined ? undefined : clip(scrub(described.message, o.secret));
      const detail = [code, said ?? (text.length > 0 ? undefined : 'empty body')].filter(Boolean).join(': ');
      failure = {
        kind: status === 429 ? 'rate_limited' : 'http',
        message: `HTTP ${status}${detail ? ` ${detail}` : ''}`,
        status,
        ...(code ? { code } : {}),
        retryable: RETRYABLE_STATUS.has(status) && header(res.headers, 'x-should-retry') !== 'false',
        hint: retryAfterMs(res.headers),
      };
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      if (callerAborted()) throw o.signal?.reason;
      const code = errorCode(err);
      if (deadline.aborted || (code && TIMEOUT_CODES.has(code))) throw timedOut(attempt);
      if (err instanceof BodyTooLarge) throw toError({ kind: 'malformed', message: err.message }, attempt);
      failure = {
        kind: 'network',
        message: `could not reach ${o.url.host}${code ? ` (${code})` : ''}`,
        cause: err,
        retryable: code !== undefined && RETRYABLE_NETWORK.has(code),
      };
    }

    if (!failure.retryable || attempt > o.maxRetries) {
      throw toError(failure, attempt, attempt > 1 ? `after ${attempt} attempts` : undefined);
    }
    if (failure.hint !== undefined && failure.hint > MAX_RETRY_AFTER_MS) {
      throw toError(failure, attempt, `not retried: the server asked to wait ${Math.ceil(failure.hint / 1000)} s`);
    }
    const wait = failure.hint ?? backoffMs(attempt - 1);
    if (Date.now() - started + wait >= o.timeoutMs) {
      throw toError(failure, attempt, `not retried: waiting ${Math.round(wait)} ms would pass the ${o.timeoutMs} ms deadline`);
    }
    try {
      await sleep(wait);
    } catch (err) {
      if (callerAborted()) throw o.signal?.reason;
      if (deadline.aborted) throw timedOut(attempt);
      throw err;
    }
    if (callerAborted()) throw o.signal?.reason;
    if (deadline.aborted) throw timedOut(attempt);
  }
}
