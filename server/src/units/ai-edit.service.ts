import { isDeepStrictEqual } from 'node:util';
import type { Actor } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Deps } from '../deps.js';
import { resolveModelRoles } from '../inference/model-roles.js';
import { conflict, notFound } from '../shared/errors.js';
import { applyLocalEdit } from './ai-edit.js';
import { contentOf, type Unit } from './unit-record.js';
import { findUnit } from './units.repository.js';
import { reviseUnit } from './units.service.js';

/**
 * Edits a unit from a natural-language instruction: through the model of the organization's
 * prose role when one is configured (falling back to the local grammar if it fails), else the
 * local grammar of ai-edit.ts. The model is asked outside any transaction; the edit is then
 * validated and versioned like any PATCH, and refused (409) if the unit changed meanwhile.
 */
export async function aiEditUnit(deps: Deps, principal: Principal, actor: Actor, unitId: string, instruction: string): Promise<Unit> {
  const row = await findUnit(deps.store.db, principal.orgId, unitId);
  if (!row) throw notFound('Unit');
  const before = contentOf(row);
  const roles = await resolveModelRoles(deps, principal.orgId);
  const edit = await roles.edit(before, instruction, applyLocalEdit);
  return deps.store.db.transaction().execute((trx) =>
    reviseUnit(trx, deps, principal, actor, unitId, 'unit.ai_edited', (content) => {
      if (!isDeepStrictEqual(content, before)) throw conflict('The unit changed while the edit was being prepared: run the instruction again');
      return {
        content: { ...content, ...edit.patch },
        details: { instruction, provider: edit.provider, summary: edit.summary, ...(roles.warnings.length ? { warnings: roles.warnings } : {}) },
      };
    }),
  );
}
