import { loadContract } from '@lemma/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

let server: TestServer;
let t: Tenant;
beforeAll(async () => {
  server = await startTestServer();
  t = await server.newTenant('http');
});

const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  server.fetch(path, { method: 'POST', apiKey: t.adminKey, headers, body });

async function expectValidation(res: Response, field: string) {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: { code: string; details: { field: string; issue: string } } };
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.details.field).toBe(field);
  expect(body.error.details.issue).toEqual(expect.any(String));
}

describe(`HTTP edge [${dialect}]`, () => {
  it('malformed JSON is 400 naming the body', async () => {
    await expectValidation(await post('/orgs', '{"name": "x", '), 'body');
  });

  it('a NUL character in any string is 400 naming its field, on both databases', async () => {
    await expectValidation(await post('/orgs', JSON.stringify({ name: 'a\u0000b', slug: `${t.slug}-nul` })), 'name');
  });

  it('a body that is not JSON is 400 naming Content-Type', async () => {
    await expectValidation(await post('/orgs', 'name=x&slug=y', { 'content-type': 'application/x-www-form-urlencoded' }), 'Content-Type');
  });

  it('an over-size body is 400, and nothing is created', async () => {
    const res = await post('/orgs', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), slug: `${t.slug}-big` }));
    await expectValidation(res, 'body');
    const org = await server.deps.store.db.selectFrom('organizations').select('id').where('slug', '=', `${t.slug}-big`).executeTakeFirst();
    expect(org).toBeUndefined();
  });

  it('a missing required field is 400 naming it', async () => {
    await expectValidation(await post('/orgs', JSON.stringify({ name: 'No slug' })), 'slug');
  });

  it('a malformed escape in a path parameter is 400 naming it', async () => {
    await expectValidation(await server.fetch('/orgs/%E0%A4%A/members', { apiKey: t.adminKey }), 'slug');
  });

  it('a JSON array where an object belongs is 400', async () => {
    await expectValidation(await post('/orgs', '[]'), 'body');
  });

  it('unknown routes are 404 in the envelope', async () => {
    for (const path of ['/nope', '/api/v1/nope', '/api/v2/orgs']) {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('echoes a valid X-Request-Id and makes one otherwise', async () => {
    const mine = await server.fetch('/orgs', { apiKey: t.adminKey, headers: { 'x-request-id': 'trace-123.abc' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123.abc');
    const bad = await server.fetch('/orgs', { apiKey: t.adminKey, headers: { 'x-request-id': 'bad id with spaces' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the contract, the API reference and the probes', async () => {
    const spec = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(spec.status).toBe(200);
    const served = (await spec.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths).sort()).toEqual(Object.keys(loadContract().paths).sort());

    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain('/docs/init.js');
    expect(html).not.toMatch(/(src|href)="https?:/); // no CDN: assets come from the installed package
    for (const asset of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/init.js']) {
      const res = await fetch(`${server.url}${asset}`);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
    expect((await fetch(`${server.url}/docs/assets/package.json`)).status).toBe(404);

    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ data: { status: 'ok' } });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ data: { status: 'ready' } });
  });
});
