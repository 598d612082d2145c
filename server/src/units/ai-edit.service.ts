import type { Actor } from '../audit/audit.repository.js';
import type { Principal } from '../auth/principal.js';
import type { Deps } from '../deps.js';
import { applyLocalEdit } from './ai-edit.js';
import type { Unit } from './unit-record.js';
import { reviseUnit } from './units.service.js';

/**
 * Edits a unit from a natural-language instruction. The built-in local provider applies the
 * small grammar of ai-edit.ts; the result is validated and versioned like any PATCH.
 */
export function aiEditUnit(deps: Deps, principal: Principal, actor: Actor, unitId: string, instruction: string): Promise<Unit> {
  return deps.store.db.transaction().execute((trx) =>
    reviseUnit(trx, deps, principal, actor, unitId, 'unit.ai_edited', (content) => {
      const edit = applyLocalEdit(content, instruction);
      return { content: { ...content, ...edit.patch }, details: { instruction, provider: 'local', summary: edit.summary } };
    }),
  );
}
