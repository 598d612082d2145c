import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, afterEach, expect } from 'vitest';
import { createApiKey, createLemmaClient, inviteMember, type LemmaClient } from '@lemma/sdk';
import { bootstrapOrg, createDeps, createLogger, loadConfig, type RunningServer, startServer } from '@lemma/server';
import { contractCheckingFetch, violations } from './contract-check.js';

export type Dialect = 'sqlite' | 'postgres';

/** The dialect this run tests (scripts/run-tests.mjs runs the suite once per dialect). */
export const dialect: Dialect = process.env.LEMMA_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

/** The Postgres server; each test server gets a database of its own, named after the run. */
const pgAdminUrl = process.env.LEMMA_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = process.env.LEMMA_TEST_RUN_ID ?? String(process.pid);

async function adminQuery(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgAdminUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

afterEach(() => {
  const seen = violations.splice(0);
  expect(seen, 'responses must match openapi.yaml').toEqual([]);
});

export interface TestDatabase {
  url: string;
  /** An extra env for child processes sharing this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh database: a SQLite file in a temp dir, or a new Postgres database. */
export async function freshDatabase(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-test-'));
  const env = { LEMMA_DATA_DIR: dataDir };
  if (dialect === 'sqlite') {
    const url = `sqlite:${path.join(dataDir, 'lemma.db')}`;
    return { url, env: { ...env, DATABASE_URL: url }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `lemma_t_${runId}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    env: { ...env, DATABASE_URL: url.toString() },
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestServer extends RunningServer {
  readonly database: TestDatabase;
  /** The encryption key of this server: another process sharing its database needs the same. */
  readonly encryptionKey: string;
  /** Log lines the server wrote (JSON), e.g. the dev outbox. */
  readonly logs: Record<string, unknown>[];
  /** An SDK client whose every response is checked against openapi.yaml. */
  client(apiKey?: string, headers?: Record<string, string>): LemmaClient;
  /** A raw fetch against the server, also contract-checked. */
  fetch(pathAndQuery: string, init?: RequestInit & { apiKey?: string }): Promise<Response>;
  /** A new organization with its admin: a fresh tenant for one test. */
  newTenant(prefix?: string): Promise<Tenant>;
}

export type Role = 'viewer' | 'reviewer' | 'author' | 'admin';

/** A member of a tenant with an API key of their role (default permissions: `inference`). */
export interface Person {
  userId: string;
  key: string;
  client: LemmaClient;
}

export interface Tenant {
  slug: string;
  orgId: string;
  adminUserId: string;
  adminKey: string;
  admin: LemmaClient;
  /** Invites `<name>@<slug>.test` with this role and creates a key (named `name`) acting for them. */
  addMember(name: string, role: Role): Promise<Person>;
}

/** Starts a server on an ephemeral port over a fresh database; stopped after the file's tests. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const database = await freshDatabase();
  const config = loadConfig({ LOG_LEVEL: 'info', PORT: '0', LEMMA_RATE_LIMIT_READ: '100000', LEMMA_RATE_LIMIT_WRITE: '100000', ...database.env, ...env });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger(config, sink);
  const encryptionKey = randomBytes(32).toString('hex');
  const deps = await createDeps(config, logger, { LEMMA_ENCRYPTION_KEY: encryptionKey });
  const server = await startServer(config, { logger, deps });
  const checkedFetch = contractCheckingFetch();
  const client = (apiKey?: string, headers?: Record<string, string>) =>
    createLemmaClient({ baseUrl: server.url, apiKey, headers, fetch: checkedFetch });
  const testServer: TestServer = {
    ...server,
    database,
    encryptionKey,
    logs,
    client,
    fetch: (p, init = {}) => {
      const headers = new Headers(init.headers);
      if (init.apiKey) headers.set('authorization', `Bearer ${init.apiKey}`);
      return checkedFetch(`${server.url}/api/v1${p}`, { ...init, headers });
    },
    async newTenant(prefix = 'org') {
      const slug = `${prefix}-${randomBytes(4).toString('hex')}`;
      const { org, user, apiKey } = await bootstrapOrg(deps, { slug, name: `Org ${slug}`, email: `admin@${slug}.test` });
      const admin = client(apiKey);
      return {
        slug, orgId: org.id, adminUserId: user.id, adminKey: apiKey, admin,
        async addMember(name: string, role: Role) {
          const { data: m } = await inviteMember({ client: admin, path: { slug }, body: { email: `${name}@${slug}.test`, role } });
          const { data: k } = await createApiKey({ client: admin, path: { slug }, body: { name, role, userId: m.userId } });
          return { userId: m.userId, key: k.key, client: client(k.key) };
        },
      };
    },
    async close() {
      await server.close();
      await database.drop();
    },
  };
  afterAll(() => testServer.close());
  return testServer;
}
