import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { openStore } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import type { Deps } from './deps.js';
import { buildApp } from './http/app.js';
import { createMailer } from './mail/mailer.js';
import { loadSecretBox } from './shared/secret-box.js';

export interface RunningServer {
  readonly deps: Deps;
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'lemma-server' },
      // Credentials never reach the log, whatever a caller logs by mistake.
      redact: ['req.headers.authorization', 'req.headers.cookie', '*.apiKey', '*.key', '*.password'],
    },
    destination,
  );
}

/** Wires the dependencies once, from config. */
export async function createDeps(config: Config, logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<Deps> {
  const store = openStore(config);
  return {
    config,
    store,
    logger,
    mailer: createMailer(config.mail, logger),
    secrets: loadSecretBox({ envKey: env.LEMMA_ENCRYPTION_KEY, oldKeys: env.LEMMA_ENCRYPTION_OLD_KEYS, dataDir: config.dataDir }),
    publicOrigin: config.publicUrl,
  };
}

/** Migrates, builds the app and listens; `close()` drains connections and closes the database. */
export async function startServer(config: Config, opts: { logger?: Logger; deps?: Deps } = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config);
  const deps = opts.deps ?? (await createDeps(config, logger));
  await migrateToLatest(deps.store.db);
  const app = await buildApp(deps);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  if (!config.publicUrlSet) deps.publicOrigin = url;
  logger.info({ url, dialect: deps.store.dialect, port }, 'lemma-server listening');
  return {
    deps,
    url,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await deps.store.close();
    },
  };
}
