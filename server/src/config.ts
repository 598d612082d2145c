import path from 'node:path';

/** Everything the server reads from its environment, parsed once and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** `sqlite:<file>` or a `postgres://` URL. */
  readonly databaseUrl: string;
  readonly dialect: 'sqlite' | 'postgres';
  readonly dataDir: string;
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
  readonly publicUrl: string;
  /** LEMMA_PUBLIC_URL when set; else links in emails use the address the request came to. */
  readonly publicUrlSet: boolean;
  /** How long a web session lasts unused. */
  readonly webSessionIdleMs: number;
  /** How long a paused inference session can be resumed. */
  readonly sessionTtlMs: number;
  readonly rateLimit: {
    readonly read: number;
    readonly write: number;
    readonly strict: number;
    readonly windowSeconds: number;
  };
  readonly mail: {
    /** `smtp://user:pass@host:port`; unset writes mail to the log (dev outbox). */
    readonly smtpUrl: string | undefined;
    readonly from: string;
  };
  /** Sign-in with OAuth providers (docs/SIGN-IN.md § OAuth providers). */
  readonly oauth: {
    /** Only the providers with a client id; a provider missing here is not configured (404). */
    readonly providers: Readonly<Partial<Record<OAuthProviderName, OAuthProviderConfig>>>;
    /** Timeout of each request to a provider (token, profile). */
    readonly timeoutMs: number;
  };
}

export type OAuthProviderName = 'github' | 'google' | 'linkedin';

export interface OAuthProviderConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  /** GitHub: the REST API's base (`/user`, `/user/emails`); Google, LinkedIn: the OpenID userinfo endpoint. */
  readonly apiUrl: string;
}

/** Each provider's real endpoints; `LEMMA_OAUTH_<P>_AUTHORIZE_URL`, `_TOKEN_URL`, `_API_URL` / `_USERINFO_URL` override them. */
const OAUTH_ENDPOINTS: Record<OAuthProviderName, { authorizeUrl: string; tokenUrl: string; apiUrl: string; apiEnv: string }> = {
  github: { authorizeUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', apiUrl: 'https://api.github.com', apiEnv: 'API_URL' },
  google: { authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth', tokenUrl: 'https://oauth2.googleapis.com/token', apiUrl: 'https://openidconnect.googleapis.com/v1/userinfo', apiEnv: 'USERINFO_URL' },
  linkedin: { authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization', tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken', apiUrl: 'https://api.linkedin.com/v2/userinfo', apiEnv: 'USERINFO_URL' },
};

function oauthProviders(env: NodeJS.ProcessEnv): Partial<Record<OAuthProviderName, OAuthProviderConfig>> {
  const providers: Partial<Record<OAuthProviderName, OAuthProviderConfig>> = {};
  for (const [name, defaults] of Object.entries(OAUTH_ENDPOINTS) as [OAuthProviderName, (typeof OAUTH_ENDPOINTS)[OAuthProviderName]][]) {
    const prefix = `LEMMA_OAUTH_${name.toUpperCase()}_`;
    const clientId = env[`${prefix}CLIENT_ID`];
    if (!clientId) continue;
    const clientSecret = env[`${prefix}CLIENT_SECRET`];
    if (!clientSecret) throw new ConfigError(`${prefix}CLIENT_SECRET is required when ${prefix}CLIENT_ID is set`);
    const url = (suffix: string, fallback: string) => {
      const value = env[`${prefix}${suffix}`] || fallback;
      if (!/^https?:\/\/[^/]/.test(value)) throw new ConfigError(`${prefix}${suffix} must be an http(s) URL, got "${value}"`);
      return value.replace(/\/+$/, '');
    };
    providers[name] = Object.freeze({
      clientId,
      clientSecret,
      authorizeUrl: url('AUTHORIZE_URL', defaults.authorizeUrl),
      tokenUrl: url('TOKEN_URL', defaults.tokenUrl),
      apiUrl: url(defaults.apiEnv, defaults.apiUrl),
    });
  }
  return providers;
}

export class ConfigError extends Error {}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.LEMMA_DATA_DIR || './data');
  const rawUrl = env.DATABASE_URL || `sqlite:${path.join(dataDir, 'lemma.db')}`;
  let dialect: Config['dialect'];
  if (/^postgres(ql)?:\/\//.test(rawUrl)) dialect = 'postgres';
  else if (rawUrl.startsWith('sqlite:')) dialect = 'sqlite';
  else throw new ConfigError(`DATABASE_URL must start with postgres:// or sqlite:, got "${rawUrl.split(':')[0]}:…"`);

  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0-65535, got "${env.PORT}"`);
  const host = env.HOST || '127.0.0.1';

  return Object.freeze({
    port,
    host,
    databaseUrl: rawUrl,
    dialect,
    dataDir,
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: positiveInt(env, 'LEMMA_BODY_LIMIT_BYTES', 1024 * 1024),
    trustProxy: env.LEMMA_TRUST_PROXY === '1',
    publicUrl: env.LEMMA_PUBLIC_URL || `http://${host}:${port}`,
    publicUrlSet: Boolean(env.LEMMA_PUBLIC_URL),
    webSessionIdleMs: positiveInt(env, 'LEMMA_WEB_SESSION_IDLE_S', 12 * 60 * 60) * 1000,
    sessionTtlMs: positiveInt(env, 'LEMMA_SESSION_TTL_S', 24 * 60 * 60) * 1000,
    rateLimit: Object.freeze({
      read: positiveInt(env, 'LEMMA_RATE_LIMIT_READ', 60),
      write: positiveInt(env, 'LEMMA_RATE_LIMIT_WRITE', 30),
      strict: positiveInt(env, 'LEMMA_RATE_LIMIT_STRICT', 5),
      windowSeconds: positiveInt(env, 'LEMMA_RATE_LIMIT_WINDOW_S', 60),
    }),
    mail: Object.freeze({
      smtpUrl: env.LEMMA_SMTP_URL || undefined,
      from: env.LEMMA_MAIL_FROM || 'Lemma <no-reply@lemma.local>',
    }),
    oauth: Object.freeze({
      providers: Object.freeze(oauthProviders(env)),
      timeoutMs: positiveInt(env, 'LEMMA_OAUTH_TIMEOUT_MS', 10_000),
    }),
  });
}
