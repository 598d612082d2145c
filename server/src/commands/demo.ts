import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../deps.js';
import { bootstrapOrg } from '../orgs/orgs.service.js';

/**
 * The embedded default's first run: on an empty database, a `demo` organization with an admin
 * key written to `<dataDir>/admin-key.txt` (mode 0600) and printed once.
 */
export async function bootstrapDemo(deps: Deps): Promise<{ keyFile: string; apiKey: string } | null> {
  const any = await deps.store.db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const { apiKey } = await bootstrapOrg(deps, { slug: 'demo', name: 'Demo', email: 'admin@demo.lemma.local' });
  const keyFile = path.join(deps.config.dataDir, 'admin-key.txt');
  fs.mkdirSync(deps.config.dataDir, { recursive: true });
  fs.writeFileSync(keyFile, apiKey + '\n', { mode: 0o600 });
  return { keyFile, apiKey };
}
