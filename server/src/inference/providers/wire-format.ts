import type { CompletionRequest, ProviderError, ProviderName } from './model-provider.js';

/** One provider's HTTP dialect: where to POST, which headers and body, and how to read the answer. */
export interface WireFormat {
  readonly name: ProviderName;
  /** The hosted API's base URL; a key is required there. */
  readonly defaultBaseUrl: string;
  /** The completion endpoint under a base URL (already parsed and checked). */
  endpoint(baseUrl: URL): URL;
  headers(apiKey: string | null): Record<string, string>;
  /** `hosted` is true when the base URL is the provider's own API rather than a compatible server. */
  body(model: string, req: CompletionRequest, opts: { hosted: boolean; maxTokens: number }): Record<string, unknown>;
  /** Reads a 2xx body; calls `malformed` (which returns the error to throw) when it is not as documented. */
  parse(
    reply: unknown,
    req: CompletionRequest,
    malformed: (message: string) => ProviderError,
  ): { text: string; json?: unknown; model: string | undefined };
}

/** `base` + `path` with exactly one slash between, dropping any query or fragment of the base. */
export function joinUrl(base: URL, path: string): URL {
  return new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}${path}`);
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
