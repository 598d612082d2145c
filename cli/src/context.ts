import { createLemmaClient, DEFAULT_BASE_URL, LemmaError, type LemmaClient, paginate, type Page } from '@lemma/sdk';
import { configPath, readConfig, type StoredConfig } from './config-file.js';
import { CliError, EXIT, usageError } from './errors.js';
import { colorWanted, Output } from './output.js';

export const CLI_VERSION = '0.1.0';

/** The global flags (`lemma --help`). */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  org?: string;
  json?: boolean;
  color?: boolean;
}

export type Source = 'flag' | 'env' | 'config' | 'default';

export interface Settings {
  baseUrl: string;
  apiKey: string | undefined;
  org: string | undefined;
  sources: { baseUrl: Source; apiKey: Source | null };
  configFile: string;
}

/** Flags win over LEMMA_BASE_URL / LEMMA_API_KEY, which win over the config file. */
export function resolveSettings(opts: GlobalOptions, env: NodeJS.ProcessEnv, file = configPath(env), stored: StoredConfig | null = readConfig(file)): Settings {
  const pick = <K extends 'baseUrl' | 'apiKey'>(flag: string | undefined, envValue: string | undefined, key: K): [string | undefined, Source | null] => {
    if (flag) return [flag, 'flag'];
    if (envValue) return [envValue, 'env'];
    if (stored?.[key]) return [stored[key], 'config'];
    return [undefined, null];
  };
  const [baseUrl, baseSource] = pick(opts.baseUrl, env.LEMMA_BASE_URL, 'baseUrl');
  const [apiKey, keySource] = pick(opts.apiKey, env.LEMMA_API_KEY, 'apiKey');
  return {
    baseUrl: baseUrl ?? DEFAULT_BASE_URL,
    apiKey,
    org: opts.org ?? env.LEMMA_ORG ?? stored?.org,
    sources: { baseUrl: baseSource ?? 'default', apiKey: keySource },
    configFile: file,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every command gets: settings, an SDK client and the output. */
export class Context {
  readonly out: Output;

  constructor(
    readonly settings: Settings,
    opts: GlobalOptions,
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.out = new Output(opts.json === true, colorWanted(opts.color, process.stdout, env));
  }

  static from(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Context {
    return new Context(resolveSettings(opts, env), opts, env);
  }

  /** A client for the configured server; without an API key this is an auth error (exit 3). */
  client(): LemmaClient {
    if (!this.settings.apiKey) {
      throw new CliError('not logged in', EXIT.auth, 'Run `lemma login`, set LEMMA_API_KEY, or pass --api-key.');
    }
    return this.clientWith(this.settings.baseUrl, this.settings.apiKey);
  }

  clientWith(baseUrl: string, apiKey: string | undefined): LemmaClient {
    const headers: Record<string, string> = { 'User-Agent': `lemma-cli/${CLI_VERSION}` };
    if (this.settings.org) headers['X-Lemma-Org'] = this.settings.org;
    try {
      return createLemmaClient({ baseUrl, apiKey, headers });
    } catch (err) {
      throw usageError(`invalid base URL ${JSON.stringify(baseUrl)}: ${(err as Error).message}`);
    }
  }

  /**
   * Runs an SDK call. A read that is rate limited (429) is retried once after its Retry-After;
   * writes are never retried (they might have been applied).
   */
  async call<T>(fn: () => Promise<T>, opts: { read: boolean }): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(opts.read && err instanceof LemmaError && err.status === 429)) throw err;
      const wait = Math.min(err.retryAfterSeconds ?? 1, 120);
      this.out.note(`Rate limited: retrying once in ${wait} s (Retry-After).`);
      await sleep(wait * 1000);
      return fn();
    }
  }

  /** One page, or with `all` every page (the items of all pages concatenated). */
  async list<T>(fetchPage: (page: { limit: number; offset: number }) => Promise<Page<T>>, opts: { all?: boolean; limit?: number; offset?: number }): Promise<{ items: T[]; total: number }> {
    const fetchRead = (page: { limit: number; offset: number }) => this.call(() => fetchPage(page), { read: true });
    if (!opts.all) {
      const page = await fetchRead({ limit: opts.limit ?? 20, offset: opts.offset ?? 0 });
      return { items: page.data, total: page.meta.total };
    }
    const items: T[] = [];
    for await (const item of paginate(fetchRead, { limit: 200, offset: opts.offset ?? 0 })) items.push(item);
    return { items, total: items.length };
  }
}
