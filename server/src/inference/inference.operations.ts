import { created, list, ok, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { generateUnitsFromGaps, listInferenceLogs, saveSegmentAsUnit, submitFeedback } from './inference-log.service.js';
import { runInference } from './inference.service.js';

export const inferenceOperations = {
  runInference: {
    minRole: 'viewer',
    permission: 'inference',
    run: async (deps, { principal, body }) => ok(await runInference(deps, principal, body)),
  },
  submitInferenceFeedback: {
    minRole: 'viewer',
    permission: 'inference',
    run: async (deps, { principal, actor, body }) => created(await submitFeedback(deps, principal, actor, body)),
  },
  saveSegmentAsUnit: {
    minRole: 'author',
    permission: 'inference',
    run: async (deps, { principal, actor, body }) => created(await saveSegmentAsUnit(deps, principal, actor, body)),
  },
  generateUnitsFromGaps: {
    minRole: 'author',
    run: async (deps, { principal, actor, body }) => {
      const units = await generateUnitsFromGaps(deps, principal, actor, body ?? {});
      return { status: 201, body: { data: units, meta: { total: units.length, limit: body?.limit ?? 5, offset: 0 } } };
    },
  },
  listInferenceLogs: {
    minRole: 'viewer',
    run: async (deps, { principal, query }) => {
      const page = pageOf(query);
      const { entries, total } = await listInferenceLogs(deps, principal, {
        userId: query.userId as string | undefined,
        sessionId: query.sessionId as string | undefined,
        mode: query.mode as string | undefined,
        startDate: query.startDate as string | undefined,
        endDate: query.endDate as string | undefined,
      }, page);
      return list(entries, { total, ...page });
    },
  },
} satisfies Record<string, Operation>;
