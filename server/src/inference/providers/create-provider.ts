import type { Dispatcher } from 'undici';
import { anthropicMessages } from './anthropic-messages.js';
import { clip, postJson, scrub, sharedDispatcher } from './http-transport.js';
import {
  ProviderError,
  type CompletionRequest,
  type ModelProvider,
  type ProviderConfig,
  type ProviderName,
} from './model-provider.js';
import { openAiChat } from './openai-chat.js';
import type { WireFormat } from './wire-format.js';

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_TOKENS = 1024;
const MAX_RETRIES_LIMIT = 10;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const WIRE_FORMATS: Record<ProviderName, WireFormat> = { openai: openAiChat, anthropic: anthropicMessages };

/** What tests and embedders may replace: the undici dispatcher (default: a shared keep-alive Agent) and the wait between retries. */
export interface ProviderDeps {
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A provider for one configured model. Never throws: an unusable configuration makes every
 * `complete` call reject with a `config` ProviderError before anything is sent, so the caller has
 * one failure path (degrade to `local`).
 */
export function createProvider(config: ProviderConfig, deps: ProviderDeps = {}): ModelProvider {
  const wire = WIRE_FORMATS[config.provider];
  if (!wire) throw new TypeError(`unknown provider ${JSON.stringify(config.provider)}`);
  const checked = checkConfig(config, wire);
  const secret = config.apiKey || null;

  return {
    name: wire.name,
    model: config.model,
    async complete(req, opts = {}) {
      if (typeof checked === 'string') throw new ProviderError(wire.name, 'config', checked);
      const problem = checkRequest(req);
      if (problem) throw new ProviderError(wire.name, 'config', problem);

      const { body: reply, attempts } = await postJson({
        provider: wire.name,
        url: checked.url,
        headers: wire.headers(secret),
        body: wire.body(config.model, req, { hosted: checked.hosted, maxTokens: req.maxTokens ?? DEFAULT_MAX_TOKENS }),
        timeoutMs: checked.timeoutMs,
        maxRetries: checked.maxRetries,
        dispatcher: deps.dispatcher ?? sharedDispatcher(),
        sleep: deps.sleep,
        signal: opts.signal,
        secret,
      });
      const malformed = (message: string) => new ProviderError(wire.name, 'malformed', clip(scrub(message, secret)), { attempts });
      const { text, json, model } = wire.parse(reply, req, malformed);
      return { text, ...(json === undefined ? {} : { json }), model: model ?? config.model, provider: wire.name, attempts };
    },
  };
}

interface Checked {
  url: URL;
  hosted: boolean;
  timeoutMs: number;
  maxRetries: number;
}

/** The configuration made usable, or why it is not (never echoing the key or the base URL, which may hold secrets). */
function checkConfig(config: ProviderConfig, wire: WireFormat): Checked | string {
  if (typeof config.model !== 'string' || config.model.trim() === '') return 'no model is configured';
  let base: URL;
  try {
    base = new URL(config.baseUrl ?? wire.defaultBaseUrl);
  } catch {
    return 'baseUrl is not a valid URL';
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return 'baseUrl must be an http or https URL';
  if (base.username || base.password) return 'baseUrl must not embed credentials';
  const hosted = base.origin === new URL(wire.defaultBaseUrl).origin;
  if (hosted && !config.apiKey) return `no API key is configured (settings.llm.providers.${wire.name}.apiKey)`;

  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return 'timeoutMs must be a positive number';
  const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
    return `maxRetries must be an integer from 0 to ${MAX_RETRIES_LIMIT}`;
  }
  return { url: wire.endpoint(base), hosted, timeoutMs, maxRetries };
}

/** Caller mistakes the providers would answer with a 400 anyway; caught here without a round trip. */
function checkRequest(req: CompletionRequest): string | undefined {
  if (!Array.isArray(req.messages) || req.messages.length === 0) return 'a completion needs at least one message';
  if (req.maxTokens !== undefined && !(Number.isInteger(req.maxTokens) && req.maxTokens > 0)) {
    return 'maxTokens must be a positive integer';
  }
  if (req.json) {
    if (!TOOL_NAME.test(req.json.name)) return 'json.name must match ^[a-zA-Z0-9_-]{1,64}$';
    if (req.json.schema.type !== 'object') return "json.schema must have type 'object' at its root";
  }
  return undefined;
}
