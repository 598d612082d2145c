import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Deps } from '../deps.js';
import { createDomain } from '../domains/domains.service.js';
import { DOMAIN_TEMPLATES } from '../domains/templates/index.js';
import { inviteMember } from '../members/members.service.js';
import { bootstrapOrg } from '../orgs/orgs.service.js';
import { verifyUnit } from '../units/unit-reviews.service.js';
import { listUnits } from '../units/units.service.js';

const ACTOR_AGENT = 'lemma-server start --demo';

/**
 * The embedded default's first run: on an empty database, a `demo` organization with one domain
 * per template whose example units are verified (authored by the admin, approved by a demo
 * reviewer: four-eyes holds here too), and an admin key written to `<dataDir>/admin-key.txt`
 * (mode 0600) and printed once.
 */
export async function bootstrapDemo(deps: Deps): Promise<{ keyFile: string; apiKey: string } | null> {
  const any = await deps.store.db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const { org, user, apiKey } = await bootstrapOrg(deps, { slug: 'demo', name: 'Demo', email: 'admin@demo.lemma.local' });
  const as = (userId: string, role: Principal['role']): [Principal, Actor] => [
    { userId, orgId: org.id, orgSlug: org.slug, role, permissions: ['inference'], apiKeyId: null, rateLimitKey: `demo:${userId}` },
    { userId, ipAddress: null, userAgent: ACTOR_AGENT },
  ];
  const [admin, adminActor] = as(user.id, 'admin');
  const reviewerMember = await inviteMember(deps, admin, adminActor, { email: 'reviewer@demo.lemma.local', role: 'reviewer' });
  const [reviewer, reviewerActor] = as(reviewerMember.userId, 'reviewer');
  for (const template of DOMAIN_TEMPLATES) {
    const domain = await createDomain(deps, admin, adminActor, { name: template.name, templateId: template.id });
    const { units } = await listUnits(deps, admin, { domainId: domain.id }, { limit: 200, offset: 0 });
    for (const unit of units) {
      await verifyUnit(deps, reviewer, reviewerActor, unit.id, { action: 'approve', comment: 'Demo content, approved at set-up.' });
    }
  }
  const keyFile = path.join(deps.config.dataDir, 'admin-key.txt');
  fs.mkdirSync(deps.config.dataDir, { recursive: true });
  fs.writeFileSync(keyFile, apiKey + '\n', { mode: 0o600 });
  return { keyFile, apiKey };
}
