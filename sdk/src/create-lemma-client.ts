import { type Auth, type Client, type Config, createClient } from './gen/client/index.js';
import { errorFromNetworkFailure, errorFromResponse, isAbort, LemmaError } from './lemma-error.js';

/** The API root of a local node started with `npm start`. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api/v1';

const API_PREFIX = '/api/v1';

/** A configured client, passed as `client` to every operation function. */
export type LemmaClient = Client;

/** Options of {@link createLemmaClient}. */
export interface LemmaClientOptions {
  /**
   * The server (`http://host:8080`) or its API root (`http://host:8080/api/v1`); `/api/v1` is
   * appended when missing. Default {@link DEFAULT_BASE_URL}.
   */
  baseUrl?: string | undefined;
  /** An API key (`lemma_pk_…`), sent as `Authorization: Bearer …`. Omit for unauthenticated calls. */
  apiKey?: string | undefined;
  /**
   * A fetch implementation; default the global `fetch`. It receives global `Request` objects,
   * so undici's own `fetch` does not fit: tune the global one with `setGlobalDispatcher` instead.
   */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every request, e.g. `{ 'User-Agent': 'lemma-cli/0.1.0' }`. */
  headers?: Record<string, string> | undefined;
}

/**
 * Resolves the API root from a server URL: keeps scheme, host and path, drops trailing slashes,
 * and appends `/api/v1` unless the path already ends with it.
 * @throws TypeError when `baseUrl` is not an absolute http(s) URL.
 */
export function normalizeBaseUrl(baseUrl: string = DEFAULT_BASE_URL): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`Invalid Lemma baseUrl "${baseUrl}": expected an absolute URL such as http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Invalid Lemma baseUrl "${baseUrl}": only http and https are supported`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith(API_PREFIX) ? path : `${path}${API_PREFIX}`}`;
}

/**
 * Creates a client for the Lemma API. Operations called with it resolve to the response body
 * (`{ data }` or `{ data, meta }`) and reject with {@link LemmaError} on any non-2xx response or
 * network failure; an abort from the caller's own `signal` rejects with the abort error as is.
 *
 * @example
 * const client = createLemmaClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.LEMMA_API_KEY });
 * const { data: members } = await listMembers({ client, path: { slug: 'acme' } });
 */
export function createLemmaClient(options: LemmaClientOptions = {}): LemmaClient {
  const { apiKey } = options;
  const config: Config = {
    baseUrl: normalizeBaseUrl(options.baseUrl),
    throwOnError: true,
    responseStyle: 'data',
    // A callback, not the bare key: the generated operations also list the session-cookie
    // scheme, and a bare string would be sent as `Cookie: lemma_session=<api key>` as well.
    auth: (scheme: Auth) => (scheme.type === 'http' && scheme.scheme === 'bearer' ? apiKey : undefined),
  };
  if (options.fetch) config.fetch = options.fetch;
  if (options.headers) config.headers = options.headers;

  // createClient() merges this over the generated defaults (JSON body serializer, Content-Type).
  const client = createClient(config);
  client.interceptors.error.use((error, response, request) => {
    if (error instanceof LemmaError) return error;
    // The client calls error interceptors without a response when fetch itself rejected.
    const received: Response | undefined = response;
    if (received === undefined) return isAbort(error) ? error : errorFromNetworkFailure(error, request);
    return errorFromResponse(error, received);
  });
  return client;
}
