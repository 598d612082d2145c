import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-process.js';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
let t: Tenant;
beforeAll(async () => {
  server = await startTestServer();
  t = await server.newTenant('cli');
});

const tempConfig = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-cli-')), 'lemma', 'config.json');

describe(`lemma login, config and exit codes [${dialect}]`, () => {
  it('login checks and stores the credentials (0600); whoami uses them; env beats the file, flags beat env', async () => {
    const config = tempConfig();
    const env = { LEMMA_CONFIG: config };
    const login = await runCli(['login', '--base-url', server.url, '--api-key', t.adminKey], env);
    expect(login.status, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${t.slug} as admin@${t.slug}.test (admin)`);
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({ baseUrl: server.url, apiKey: t.adminKey });

    const who = await runCli(['whoami', '--json'], env);
    expect(who.status, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ organization: { slug: t.slug }, role: 'admin', apiKey: { name: 'bootstrap admin' } });

    const { data: viewerKey } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'env key', role: 'viewer' } });
    const { data: flagKey } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'flag key', role: 'viewer' } });
    const fromEnv = await runCli(['whoami'], { ...env, LEMMA_API_KEY: viewerKey.key });
    expect(fromEnv.stdout).toMatch(/key\s+env key/);
    expect(fromEnv.stdout).toMatch(/role\s+viewer/);
    expect(fromEnv.stdout).toMatch(/credentials\s+from env/);
    const fromFlag = await runCli(['whoami', '--api-key', flagKey.key], { ...env, LEMMA_API_KEY: viewerKey.key });
    expect(fromFlag.stdout).toMatch(/key\s+flag key/);
    // The base URL too: a flag pointing nowhere wins over the file.
    const nowhere = await runCli(['whoami', '--base-url', 'http://127.0.0.1:9'], env);
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toContain('http://127.0.0.1:9');
    expect(nowhere.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const logout = await runCli(['logout'], env);
    expect(logout.status).toBe(0);
    expect(fs.existsSync(config)).toBe(false);
    const after = await runCli(['whoami'], env);
    expect(after.status).toBe(3);
    expect(after.stderr).toContain('not logged in');
  });

  it('login refuses a bad key (exit 3, nothing stored) and needs flags without a terminal (exit 2)', async () => {
    const config = tempConfig();
    const bad = await runCli(['login', '--base-url', server.url, '--api-key', `lemma_pk_${'0'.repeat(32)}`], { LEMMA_CONFIG: config });
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain('UNAUTHORIZED');
    expect(fs.existsSync(config)).toBe(false);
    const noFlags = await runCli(['login'], { LEMMA_CONFIG: config });
    expect(noFlags.status).toBe(2);
    expect(noFlags.stderr).toContain('--base-url and --api-key');
  });

  it('an expired key is an auth error (exit 3)', async () => {
    const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'short', role: 'viewer', expiresAt: new Date(Date.now() + 1500).toISOString() } });
    const before = await runCli(['whoami'], { LEMMA_BASE_URL: server.url, LEMMA_API_KEY: k.key, LEMMA_CONFIG: tempConfig() });
    expect(before.status, before.stderr).toBe(0);
    await new Promise((r) => setTimeout(r, 1600));
    const after = await runCli(['whoami'], { LEMMA_BASE_URL: server.url, LEMMA_API_KEY: k.key, LEMMA_CONFIG: tempConfig() });
    expect(after.status).toBe(3);
    expect(after.stderr).toContain('refused');
  });

  it('usage errors exit 2: an unknown command or flag, a malformed config file', async () => {
    expect((await runCli(['frobnicate'])).status).toBe(2);
    const flag = await runCli(['whoami', '--frobnicate'], { LEMMA_CONFIG: tempConfig() });
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("unknown option '--frobnicate'");
    const config = tempConfig();
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, '{ not json');
    const malformed = await runCli(['whoami'], { LEMMA_CONFIG: config });
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('is not valid JSON');
    const help = await runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
  });
});

describe(`lemma and rate limits [${dialect}]`, () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ LEMMA_RATE_LIMIT_READ: '2', LEMMA_RATE_LIMIT_WINDOW_S: '2' });
  });

  it('a rate-limited read is retried once after Retry-After', async () => {
    const lt = await limited.newTenant('cli-rl');
    const env = { LEMMA_BASE_URL: limited.url, LEMMA_API_KEY: lt.adminKey, LEMMA_CONFIG: tempConfig() };
    expect((await runCli(['whoami'], env)).status).toBe(0);
    expect((await runCli(['whoami'], env)).status).toBe(0);
    const third = await runCli(['whoami'], env);
    expect(third.status, third.stderr).toBe(0);
    expect(third.stderr).toMatch(/Rate limited: retrying once in \d+ s/);
  });
});
