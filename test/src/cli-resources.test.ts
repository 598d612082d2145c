// The resource commands of the built `lemma` binary (orgs, members, keys, domains, units,
// workflows, completion) against a live server: exit codes, --json equal to the API's data,
// human output, --file parsing and --all paging.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  getUnit, getWorkflow, listApiKeys, listDomainMembers, listDomains, listMembers, listOrgs, listUnitEdges, listUnits, listWorkflows,
  type Unit, type UnitCreate,
} from '@lemma/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';

const CLI_BIN = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: TestServer;
let t: Tenant;
let dir: string;
let baseEnv: Record<string, string>;

/** Runs the CLI asynchronously (the server lives in this process: a sync spawn would block it). */
function lemma(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs and expects success; returns stdout parsed as JSON when --json is among the args. */
async function ok(args: string[], env: Record<string, string> = {}): Promise<Run & { json: any }> {
  const r = await lemma(args, env);
  expect(r.code, `lemma ${args.join(' ')}\n${r.stderr}${r.stdout}`).toBe(0);
  return { ...r, json: args.includes('--json') ? JSON.parse(r.stdout) : undefined };
}

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

const vacation = (name = 'Vacation accrual'): Omit<UnitCreate, 'domainId'> => ({
  name,
  unitType: 'program',
  description: 'Annual vacation days by years of service.',
  then: 'The employee accrues {{vacation_days}} vacation days per year.',
  inputSchema: { type: 'object', properties: { years_of_service: { type: 'number' } }, required: ['years_of_service'] },
  outputSchema: { type: 'object', properties: { vacation_days: { type: 'integer' } } },
  definition: {
    steps: [
      { id: 'base', set: 'vacation_days', expr: '10' },
      { id: 'senior', if: 'years_of_service >= 5', set: 'vacation_days', expr: '15' },
    ],
  },
  examples: [{ name: 'senior', inputs: { years_of_service: 7 }, expected: { vacation_days: 15 } }],
});

/** A unit that consumes `vacation_days` (for workflows and edges). */
const payout = (): Omit<UnitCreate, 'domainId'> => ({
  name: 'Vacation payout',
  unitType: 'program',
  description: 'Payout of unused vacation days.',
  inputSchema: { type: 'object', properties: { vacation_days: { type: 'number' }, daily_rate: { type: 'number' } }, required: ['vacation_days', 'daily_rate'] },
  outputSchema: { type: 'object', properties: { payout: { type: 'number' } } },
  definition: { steps: [{ id: 'pay', set: 'payout', expr: 'vacation_days * daily_rate' }] },
});

beforeAll(async () => {
  server = await startTestServer();
  t = await server.newTenant('cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lemma-cli-res-'));
  const env = { ...process.env } as Record<string, string>;
  for (const k of ['LEMMA_ORG', 'LEMMA_BASE_URL', 'LEMMA_API_KEY', 'FORCE_COLOR']) delete env[k];
  baseEnv = { ...env, LEMMA_CONFIG: path.join(dir, 'config.json'), LEMMA_BASE_URL: server.url, LEMMA_API_KEY: t.adminKey, NO_COLOR: '1' };
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

describe(`lemma resource commands [${dialect}]`, () => {
  it('orgs: list/create/update; --json is the API data; a new org key is printed once', async () => {
    const [list, human] = await Promise.all([ok(['orgs', 'list', '--json']), ok(['orgs', 'list'])]);
    expect(list.json).toEqual((await listOrgs({ client: t.admin })).data);
    expect(human.stdout).toContain(t.slug);
    expect(human.stdout).toMatch(/slug.*name.*plan/);

    const slug = `${t.slug}-two`;
    const created = await ok(['orgs', 'create', '--name', 'Second org', '--slug', slug]);
    expect(created.stdout).toContain(`Created organization ${slug}`);
    const key = /lemma_pk_[0-9a-f]{32}/.exec(created.stdout)?.[0];
    expect(key, created.stdout).toBeDefined();
    expect(created.stdout.split(key!).length - 1).toBe(1);
    expect(created.stderr).toMatch(/shown only once/);

    const settings = write('settings.yaml', toYaml({ verification: { minApprovals: 1 } }));
    const [updated, viaInline] = await Promise.all([
      ok(['orgs', 'update', t.slug, '--plan', 'team', '--settings', `@${settings}`, '--json']),
      ok(['orgs', 'update', slug, '--name', 'Renamed', '--settings', '{"verification":{"minApprovals":2}}'], { LEMMA_API_KEY: key! }),
    ]);
    expect(updated.json).toEqual((await listOrgs({ client: t.admin })).data[0]);
    expect(updated.json).toMatchObject({ plan: 'team', settings: { verification: { minApprovals: 1 } } });
    expect(viaInline.stdout).toMatch(/name\s+Renamed/);

    const [badPlan, nothing, badJson] = await Promise.all([
      lemma(['orgs', 'update', t.slug, '--plan', 'gold']),
      lemma(['orgs', 'update', t.slug]),
      lemma(['orgs', 'update', t.slug, '--settings', '{nope']),
    ]);
    expect([badPlan.code, nothing.code, badJson.code]).toEqual([2, 2, 2]);
    expect(badPlan.stderr).toContain('Allowed choices are free, team, enterprise');
    expect(badJson.stderr).toContain('--settings is not valid JSON');
  });

  it('members and keys: invite, update, list, remove; a key printed once; 403 and revoked key', async () => {
    const email = `rev@${t.slug}.test`;
    const invited = await ok(['members', 'invite', email, '--role', 'reviewer', '--json']);
    expect(invited.json).toMatchObject({ email, role: 'reviewer' });
    const [list, human] = await Promise.all([ok(['members', 'list', '--json', '--all']), ok(['members', 'list'])]);
    expect(list.json).toEqual((await listMembers({ client: t.admin, path: { slug: t.slug }, query: { limit: 200 } })).data);
    expect(human.stdout).toContain(email);

    // By email, by member ID; then back.
    expect((await ok(['members', 'update', email, '--role', 'author'])).stdout).toContain(`${email} is now author`);
    expect((await ok(['members', 'update', invited.json.id, '--role', 'reviewer', '--json'])).json.role).toBe('reviewer');

    // keys create: the key once on stdout, the warning on stderr.
    const created = await ok(['keys', 'create', '--name', 'ci viewer', '--role', 'viewer', '--permission', 'inference']);
    const key = /lemma_pk_[0-9a-f]{32}/.exec(created.stdout)?.[0];
    expect(key, created.stdout).toBeDefined();
    expect(created.stdout.split(key!).length - 1).toBe(1);
    expect(created.stderr).toMatch(/Copy this key now: it is shown only once/);
    expect(created.stdout).toContain('role viewer, permissions inference');
    const reviewerKey = await ok(['keys', 'create', '--name', 'reviewer', '--role', 'reviewer', '--user', email, '--json']);
    expect(reviewerKey.json).toMatchObject({ role: 'reviewer', userId: invited.json.userId, permissions: ['inference'] });
    expect(reviewerKey.json.key).toMatch(/^lemma_pk_/);
    expect((await ok(['keys', 'create', '--name', 'none', '--no-permissions', '--json'])).json.permissions).toEqual([]);

    // A viewer key may not list keys (403, exit 1); then the listing (the call above touched lastUsedAt).
    const forbidden = await lemma(['keys', 'list'], { LEMMA_API_KEY: key! });
    const [keys, keysHuman] = await Promise.all([ok(['keys', 'list', '--all', '--json']), ok(['keys', 'list'])]);
    expect(keys.json).toEqual((await listApiKeys({ client: t.admin, path: { slug: t.slug }, query: { limit: 200 } })).data);
    expect(keysHuman.stdout).toContain('ci viewer');
    expect(keysHuman.stdout).not.toContain(key!);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(/^error: FORBIDDEN: /m);

    const viewerKeyId = keys.json.find((k: { name: string }) => k.name === 'ci viewer').id;
    const [revokedNow] = await Promise.all([ok(['keys', 'revoke', viewerKeyId]), ok(['members', 'invite', `gone@${t.slug}.test`, '--role', 'viewer'])]);
    expect(revokedNow.stdout).toContain('Revoked the key "ci viewer"');
    const [revoked, again, removed, noRole] = await Promise.all([
      lemma(['whoami'], { LEMMA_API_KEY: key! }),
      lemma(['keys', 'revoke', viewerKeyId]),
      ok(['members', 'remove', `gone@${t.slug}.test`, '--json']),
      lemma(['members', 'invite', 'x@y.test']),
    ]);
    expect(revoked.code).toBe(3);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('CONFLICT');
    expect(removed.json).toMatchObject({ email: `gone@${t.slug}.test`, role: 'viewer' });
    expect(noRole.code).toBe(2);
    expect(noRole.stderr).toContain("required option '--role <role>' not specified");
  });

  it('domains: create (with a template), list, templates, members add/list/remove', async () => {
    const created = await ok(['domains', 'create', '--name', 'Human Resources', '--jurisdiction', 'US-CA', '--description', 'People matters', '--json']);
    expect(created.json).toMatchObject({ slug: 'human-resources', jurisdiction: 'US-CA', description: 'People matters', unitCount: 0 });
    const templates = await ok(['domains', 'templates', '--json', '--all']);
    expect(templates.json.length).toBeGreaterThan(0);
    const tpl = templates.json[0];
    const [fromTpl, tplHuman] = await Promise.all([ok(['domains', 'create', '--name', 'From template', '--template', tpl.id]), ok(['domains', 'templates'])]);
    expect(fromTpl.stdout).toMatch(new RegExp(`with ${tpl.units.length} candidate units`));
    expect(tplHuman.stdout).toContain(tpl.id);
    const [list, human] = await Promise.all([ok(['domains', 'list', '--json', '--all']), ok(['domains', 'list'])]);
    expect(list.json).toEqual((await listDomains({ client: t.admin, query: { limit: 200 } })).data);
    expect(human.stdout).toContain('human-resources');

    const email = `rev@${t.slug}.test`;
    expect((await ok(['domains', 'members', 'add', 'human-resources', email, '--role', 'reviewer'])).stdout).toContain(`Added ${email} to the domain human-resources as reviewer`);
    const members = await ok(['domains', 'members', 'list', 'human-resources', '--json']);
    expect(members.json).toEqual((await listDomainMembers({ client: t.admin, path: { slug: 'human-resources' } })).data);
    expect(members.json).toHaveLength(1);
    await ok(['domains', 'members', 'add', 'human-resources', t.adminUserId, '--role', 'admin']);
    expect((await ok(['domains', 'members', 'remove', 'human-resources', t.adminUserId])).stdout).toContain('Removed');
    const unknown = await lemma(['domains', 'members', 'list', 'no-such-domain']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND');
  });

  let unitA: Unit;
  let unitB: Unit;

  it('units: create --file JSON and YAML, get, update, list filters, --limit vs --all', async () => {
    const { data: domains } = await listDomains({ client: t.admin, query: { limit: 200 } });
    const hr = domains.find((d) => d.slug === 'human-resources')!;
    // JSON with domainId in the file; YAML with the domain given by slug.
    const jsonFile = write('unit.json', JSON.stringify({ ...vacation(), domainId: hr.id }, null, 2));
    const yamlFile = write('unit.yaml', toYaml(payout()));
    const [a, b] = await Promise.all([ok(['units', 'create', '--file', jsonFile, '--json']), ok(['units', 'create', '--file', yamlFile, '--domain', 'human-resources'])]);
    unitA = a.json;
    expect(unitA).toMatchObject({ slug: 'vacation-accrual', status: 'candidate', version: 1, domainId: hr.id, exampleResults: { passing: 1, failing: 0 } });
    expect(b.stdout).toMatch(/^Created unit vacation-payout \(unit_\w+\): candidate, version 1/);
    unitB = (await getUnit({ client: t.admin, path: { id: /\((unit_\w+)\)/.exec(b.stdout)![1]! } })).data;

    const [got, human] = await Promise.all([ok(['units', 'get', unitA.id, '--json']), ok(['units', 'get', unitA.id])]);
    expect(got.json).toEqual((await getUnit({ client: t.admin, path: { id: unitA.id } })).data);
    expect(human.stdout).toMatch(/slug\s+vacation-accrual/);
    expect(human.stdout).toMatch(/examples\s+1 passing, 0 failing/);

    const patch = write('patch.yml', 'description: Vacation days per year of service.\njurisdiction: US-CA\n');
    const updated = await ok(['units', 'update', unitA.id, '--file', patch, '--json']);
    expect(updated.json).toMatchObject({ description: 'Vacation days per year of service.', jurisdiction: 'US-CA' });
    unitA = updated.json;

    // Five units in a domain of their own: one page of 2, then every page.
    const paging = await ok(['domains', 'create', '--name', 'Paging', '--json']);
    const pagingFile = (i: number) => write(`paging-${i}.json`, JSON.stringify(vacation(`Paging ${i}`)));
    await Promise.all([1, 2, 3, 4, 5].map((i) => ok(['units', 'create', '--file', pagingFile(i), '--domain', paging.json.id])));
    const [page, pageHuman, all, offset] = await Promise.all([
      ok(['units', 'list', '--domain', 'paging', '--limit', '2', '--json']),
      ok(['units', 'list', '--domain', 'paging', '--limit', '2']),
      ok(['units', 'list', '--domain', 'paging', '--all', '--json']),
      ok(['units', 'list', '--domain', paging.json.id, '--limit', '2', '--offset', '4', '--json']),
    ]);
    expect(page.json).toHaveLength(2);
    expect(pageHuman.stderr).toContain('1-2 of 5: --all for every page, or --offset 2.');
    expect(all.json).toHaveLength(5);
    expect(all.json).toEqual((await listUnits({ client: t.admin, query: { domainId: paging.json.id, limit: 200 } })).data);
    expect(page.json).toEqual(all.json.slice(0, 2));
    expect(offset.json).toEqual(all.json.slice(4));
    const [filtered, none] = await Promise.all([
      ok(['units', 'list', '--type', 'program', '--status', 'candidate', '--jurisdiction', 'US-CA', '--domain', 'human-resources', '--all', '--json']),
      ok(['units', 'list', '--type', 'framework', '--domain', 'paging']),
    ]);
    expect(filtered.json.map((u: Unit) => u.id)).toContain(unitA.id);
    expect(filtered.json).toEqual((await listUnits({ client: t.admin, query: { unitType: 'program', status: 'candidate', jurisdiction: 'US-CA', domainId: hr.id, limit: 200 } })).data);
    expect(none.stdout).toContain('(none)');
    const bySlugs = await ok(['units', 'by-slugs', 'vacation-accrual', 'vacation-payout', 'nope', '--json']);
    expect(bySlugs.json.map((u: Unit) => u.slug).sort()).toEqual(['vacation-accrual', 'vacation-payout']);
  });

  it('units: assign, verify (approve / request changes with element reviews), edges, ai-edit, gaps, delete', async () => {
    const reviewer = `rev@${t.slug}.test`;
    const rk = (await ok(['keys', 'create', '--name', 'rev2', '--role', 'reviewer', '--user', reviewer, '--json'])).json.key as string;
    const assigned = await ok(['units', 'assign', unitA.id, reviewer, '--json']);
    expect(assigned.json).toMatchObject({ status: 'in_review' });
    expect(assigned.json.reviewers).toHaveLength(1);

    const [changes, badElement, neither] = await Promise.all([
      ok(['units', 'verify', unitB.id, '--request-changes', '--comment', 'check the rate', '--element', 'pay=correct_values:use the gross rate', '--json'], { LEMMA_API_KEY: rk }),
      lemma(['units', 'verify', unitB.id, '--approve', '--element', 'pay'], { LEMMA_API_KEY: rk }),
      lemma(['units', 'verify', unitB.id], { LEMMA_API_KEY: rk }),
    ]);
    expect(changes.json).toMatchObject({ status: 'in_review' });
    expect(changes.json.proposedChanges[0]).toMatchObject({ elementId: 'pay', action: 'correct_values', comment: 'use the gross rate' });
    expect([badElement.code, neither.code]).toEqual([2, 2]);
    const approved = await ok(['units', 'verify', unitA.id, '--approve', '--element', 'base=approve'], { LEMMA_API_KEY: rk });
    expect(approved.stdout).toMatch(/^Reviewed vacation-accrual v2 \(approve\): now verified/);
    // Four-eyes: the author may not review their own unit.
    const own = await lemma(['units', 'verify', unitB.id, '--approve']);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('FORBIDDEN');

    const edge = await ok(['units', 'connect', unitA.id, unitB.id, '--kind', 'feeds', '--map', 'vacation_days=vacation_days', '--json']);
    expect(edge.json).toMatchObject({ sourceUnitId: unitA.id, targetUnitId: unitB.id, kind: 'feeds' });
    const [edges, edgesHuman] = await Promise.all([ok(['units', 'edges', unitB.id, '--json']), ok(['units', 'edges', unitA.id])]);
    expect(edges.json).toEqual((await listUnitEdges({ client: t.admin, path: { id: unitB.id } })).data);
    expect(edgesHuman.stdout).toContain('vacation_days→vacation_days');

    const edited = await ok(['units', 'ai-edit', unitB.id, 'rename', 'to', '"Vacation payout (CA)"', '--json']);
    expect(edited.json).toMatchObject({ name: 'Vacation payout (CA)', status: 'candidate' });
    const gaps = await ok(['units', 'generate-from-gaps', '--limit', '1', '--json']);
    expect(Array.isArray(gaps.json)).toBe(true);

    const scratch = await ok(['units', 'create', '--file', write('scratch.json', JSON.stringify(vacation('Scratch'))), '--domain', 'human-resources', '--json']);
    expect((await ok(['units', 'delete', scratch.json.id])).stdout).toBe(`Deleted unit scratch (${scratch.json.id}).\n`);
    const gone = await lemma(['units', 'get', scratch.json.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^error: NOT_FOUND: /);
  });

  it('workflows: create, list, get, version, status, compose', async () => {
    const created = await ok(['workflows', 'create', '--name', 'Vacation payout flow', '--domain', 'human-resources', '--unit', unitA.id, '--unit', unitB.id, '--json']);
    expect(created.json).toMatchObject({ slug: 'vacation-payout-flow', version: 1, status: 'draft', units: [unitA.id, unitB.id] });
    const [list, listHuman, got, getHuman] = await Promise.all([
      ok(['workflows', 'list', '--json', '--all', '--status', 'draft']),
      ok(['workflows', 'list', '--domain', 'human-resources']),
      ok(['workflows', 'get', 'vacation-payout-flow', '--json']),
      ok(['workflows', 'get', 'vacation-payout-flow']),
    ]);
    expect(list.json).toEqual((await listWorkflows({ client: t.admin, query: { status: 'draft' } })).data);
    expect(listHuman.stdout).toContain('vacation-payout-flow');
    expect(got.json).toEqual((await getWorkflow({ client: t.admin, path: { slug: 'vacation-payout-flow' } })).data);
    expect(getHuman.stdout).toMatch(/status\s+draft/);
    expect(getHuman.stdout).toContain(unitB.id);

    const fromFile = write('wf.yaml', toYaml({ name: 'Accrual only', units: [unitA.id] }));
    const v = await ok(['workflows', 'create', '--file', fromFile, '--domain', 'human-resources']);
    expect(v.stdout).toMatch(/^Created workflow accrual-only \(wf_\w+\) v1, draft, 1 units/);

    expect((await ok(['workflows', 'version', 'vacation-payout-flow', '--unit', unitA.id])).stdout).toContain('now at version 2 (1 units');
    const [v1, status] = await Promise.all([ok(['workflows', 'get', 'vacation-payout-flow', '1', '--json']), ok(['workflows', 'status', 'vacation-payout-flow', 'active', '--json'])]);
    expect(v1.json).toMatchObject({ version: 1, units: [unitA.id, unitB.id] });
    expect(status.json).toMatchObject({ status: 'active', version: 2 });

    const composed = await ok(['workflows', 'compose', '--domain', 'human-resources', 'vacation', 'days', 'accrual', '--json']);
    expect(composed.json).toMatchObject({ domainId: unitA.domainId });
    expect(Array.isArray(composed.json.unmatched)).toBe(true);

    const [missing, badStatus, dup] = await Promise.all([
      lemma(['workflows', 'create', '--name', 'x']),
      lemma(['workflows', 'status', 'vacation-payout-flow', 'paused']),
      lemma(['workflows', 'create', '--name', 'Vacation payout flow', '--domain', 'human-resources', '--unit', unitA.id]),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('needs --domain, --unit (or --file)');
    expect(badStatus.code).toBe(2);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('CONFLICT');
  });

  it('bad input: a 400 names code, message and field (exit 1); files that are missing or malformed and unknown flags exit 2', async () => {
    const bad = { ...vacation('Broken'), definition: { steps: [{ id: 'base', set: 'vacation_days', expr: '10 +' }] } };
    const badFile = write('bad.json', JSON.stringify(bad));
    const [invalid, missing, notJson, notYaml, list, flag, noKey, noDomain, dir_] = await Promise.all([
      lemma(['units', 'create', '--file', badFile, '--domain', 'human-resources']),
      lemma(['units', 'create', '--file', path.join(dir, 'nope.json')]),
      lemma(['units', 'create', '--file', write('broken.json', '{"name": ')]),
      lemma(['units', 'update', 'unit_x', '--file', write('broken.yaml', 'name: [unclosed\n')]),
      lemma(['units', 'create', '--file', write('list.yaml', '- a\n- b\n')]),
      lemma(['units', 'list', '--frobnicate']),
      lemma(['units', 'list'], { LEMMA_API_KEY: '' }),
      lemma(['units', 'list', '--domain', 'no-such-domain']),
      lemma(['units', 'create', '--file', dir]),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^error: VALIDATION_ERROR: .+ \(field: definition\.steps\[0\]\.expr\)$/m);
    expect(invalid.stderr).toMatch(/^request id: /m);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`error: unit file ${path.join(dir, 'nope.json')} does not exist`);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('broken.json is not valid JSON');
    expect(notYaml.code).toBe(2);
    expect(notYaml.stderr).toContain('broken.yaml is not valid YAML');
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('must hold a JSON/YAML object');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--frobnicate'");
    expect(noKey.code).toBe(3);
    expect(noDomain.code).toBe(1);
    expect(noDomain.stderr).toContain('no domain with the ID or slug "no-such-domain"');
    expect(dir_.code).toBe(2);
    const [limit, noFile] = await Promise.all([lemma(['units', 'list', '--limit', '500']), lemma(['units', 'create'])]);
    expect(limit.code).toBe(2);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain("required option '--file <path>' not specified");
  });

  it('completion: bash, zsh and fish scripts from the command tree; an unknown shell exits 2', async () => {
    const [bash, zsh, fish, tcsh] = await Promise.all([
      ok(['completion', 'bash'], { LEMMA_API_KEY: '' }),
      ok(['completion', 'zsh'], { LEMMA_API_KEY: '' }),
      ok(['completion', 'fish'], { LEMMA_API_KEY: '' }),
      lemma(['completion', 'tcsh']),
    ]);
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toContain('Allowed choices are bash, zsh, fish');
    for (const script of [bash.stdout, zsh.stdout, fish.stdout]) {
      for (const word of ['units', 'workflows', 'generate-from-gaps', 'domains', 'request-changes', 'partial_verified', 'completion']) expect(script).toContain(word);
    }
    expect(bash.stdout).toContain('complete -o default -F _lemma lemma');
    expect(zsh.stdout).toMatch(/^#compdef lemma/);
    expect(fish.stdout).toContain("complete -c lemma -n '__lemma_at \\'lemma units\\'' -a 'verify'");

    const file = write('lemma.bash', bash.stdout);
    expect(spawnSync('bash', ['-n', file], { encoding: 'utf8' }).status).toBe(0);
    // What bash offers: subcommands, flags, and the choices of a flag's value.
    const complete = (line: string) => {
      const words = line.split(' ');
      const script = `source ${JSON.stringify(file)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _lemma; echo "\${COMPREPLY[*]}"`;
      return spawnSync('bash', ['-c', script], { encoding: 'utf8' }).stdout.trim();
    };
    expect(complete('lemma un')).toBe('units');
    expect(complete('lemma units ve')).toBe('verify');
    expect(complete('lemma units verify --re')).toBe('--request-changes');
    expect(complete('lemma --json units list --status ')).toBe('candidate in_review verified partial_verified');
    expect(complete('lemma workflows status wf ')).toBe('draft active archived');
  });
});
