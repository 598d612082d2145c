import { createDomain, createUnit, runInference, verifyUnit, createApiKey, inviteMember, type UnitCreate } from '@lemma/sdk';
import { it } from 'vitest';
import { startTestServer } from './harness.js';
it('debug', async () => {
  const server = await startTestServer();
  const t = await server.newTenant('dbg');
  const { data: m } = await inviteMember({ client: t.admin, path: { slug: t.slug }, body: { email: `r@${t.slug}.test`, role: 'reviewer' } });
  const { data: k } = await createApiKey({ client: t.admin, path: { slug: t.slug }, body: { name: 'r', role: 'reviewer', userId: m.userId } });
  const unit = (domainId: string): UnitCreate => ({
    name: 'Zorvex plimbar', unitType: 'program', domainId,
    then: 'The zorvex plimbar is {{dwindal_value}} for quarn count {{quarn_count}}.',
    inputSchema: { type: 'object', properties: { quarn_count: { type: 'integer' } }, required: ['quarn_count'] },
    outputSchema: { type: 'object', properties: { dwindal_value: { type: 'integer' } } },
    definition: { steps: [{ id: 'base', set: 'dwindal_value', expr: '3' }] },
  });
  const q = 'What is the zorvex plimbar with a quarn count of 12?';
  const ask = async (domainId: string) => (await runInference({ client: t.admin, body: { query: q, domainId } })).data;
  const { data: d1 } = await createDomain({ client: t.admin, body: { name: 'D1' } });
  const { data: u1 } = await createUnit({ client: t.admin, body: unit(d1.id) });
  await verifyUnit({ client: server.client(k.key), path: { id: u1.id }, body: { action: 'approve' } });
  console.log('first ask', (await ask(d1.id)).mode);
  // Two more units with the same words, anywhere (another domain, unverified).
  const { data: d2 } = await createDomain({ client: t.admin, body: { name: 'D2' } });
  await createUnit({ client: t.admin, body: unit(d2.id) });
  await createUnit({ client: t.admin, body: unit(d2.id) });
  const again = await ask(d1.id);
  console.log('second ask', again.mode, JSON.stringify(again.segments));
  await new Promise((r) => setTimeout(r, 10_500));
  console.log('after 10.5 s', (await ask(d1.id)).mode);
}, 60_000);
