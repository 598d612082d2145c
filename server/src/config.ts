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
  });
}
