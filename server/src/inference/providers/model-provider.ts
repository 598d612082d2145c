/**
 * The narrow interface the inference pipeline calls to reach a remote model (DESIGN §8): one
 * chat completion, optionally constrained to a JSON schema. The built-in `local` provider is not
 * here; the pipeline falls back to it when a call here throws.
 */

/** The remote providers: `openai` speaks Chat Completions (OpenAI, vLLM, Ollama, llama.cpp), `anthropic` the Messages API. */
export type ProviderName = 'openai' | 'anthropic';

/** One conversation turn; the system prompt travels separately in {@link CompletionRequest.system}. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What to ask the model. */
export interface CompletionRequest {
  system: string;
  messages: ChatMessage[];
  /**
   * Ask for JSON matching this schema (OpenAI `json_schema` response_format; Anthropic forced tool).
   * The schema's root must be `type: 'object'`; `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
   * `strict` (default true) is OpenAI's strict schema adherence.
   */
  json?: { name: string; schema: Record<string, unknown>; strict?: boolean };
  /** Output token cap; default 1024. */
  maxTokens?: number;
  temperature?: number;
}

/** A model's answer. `json` is set (always a plain object) when the request asked for JSON. */
export interface Completion {
  text: string;
  json?: unknown;
  /** The model that answered, as the provider reports it (falls back to the configured one). */
  model: string;
  provider: ProviderName;
  /** HTTP attempts made, retries included. */
  attempts: number;
}

/**
 * Why a call failed:
 * - `config`: the configuration or request is unusable (no API key, bad baseUrl…); nothing was sent.
 * - `timeout`: no complete answer within `timeoutMs`.
 * - `network`: the server could not be reached (connection refused/reset, DNS…).
 * - `rate_limited`: HTTP 429 after the allowed retries.
 * - `http`: any other non-2xx status (`status` says which; 529 is Anthropic's overload).
 * - `malformed`: a 2xx answer that is not what the wire format promises, or JSON output that does not parse.
 */
export type ProviderErrorKind = 'timeout' | 'http' | 'rate_limited' | 'malformed' | 'network' | 'config';

/** The one error a provider throws. Its message never contains the API key. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly provider: ProviderName;
  /** The HTTP status, for `http` and `rate_limited`. */
  readonly status?: number;
  /** The provider's own error code or type (`rate_limit_exceeded`, `overloaded_error`…), when it sent one. */
  readonly code?: string;
  /** HTTP attempts made before giving up (0 for `config`). */
  readonly attempts: number;

  constructor(
    provider: ProviderName,
    kind: ProviderErrorKind,
    message: string,
    opts: { status?: number; code?: string; attempts?: number; cause?: unknown } = {},
  ) {
    super(`${provider}: ${message}`, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.provider = provider;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.code !== undefined) this.code = opts.code;
    this.attempts = opts.attempts ?? 0;
  }
}

/** How to reach one provider: `settings.llm.providers.<name>` with the API key decrypted, plus the role's model. */
export interface ProviderConfig {
  provider: ProviderName;
  model: string;
  /** Required for the hosted APIs (api.openai.com, api.anthropic.com); optional with a custom `baseUrl`. */
  apiKey: string | null;
  /** Default `https://api.openai.com/v1` (openai) or `https://api.anthropic.com` (anthropic). */
  baseUrl?: string;
  /** Deadline for one `complete` call, retries and waits included; default 20 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 2 (so at most 3 attempts). */
  maxRetries?: number;
}

/** A configured provider and model. */
export interface ModelProvider {
  readonly name: ProviderName;
  readonly model: string;
  /**
   * One completion. Rejects with {@link ProviderError}, or with `opts.signal.reason` when the
   * caller aborts.
   */
  complete(req: CompletionRequest, opts?: { signal?: AbortSignal }): Promise<Completion>;
}
