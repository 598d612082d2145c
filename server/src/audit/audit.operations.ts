import { list, type Operation } from '../http/operation.js';
import { pageOf } from '../http/pagination.js';
import { forbidden } from '../shared/errors.js';
import { type AuditFilters, auditCsvStream, listAuditEntries } from './audit.service.js';

const filtersOf = (q: Record<string, unknown>): AuditFilters => ({
  action: q.action as string | undefined,
  resourceType: q.resourceType as string | undefined,
  resourceId: q.resourceId as string | undefined,
  userId: q.userId as string | undefined,
  startDate: q.startDate as string | undefined,
  endDate: q.endDate as string | undefined,
});

export const auditOperations = {
  listAuditEntries: {
    minRole: 'viewer',
    run: async (deps, { principal, query }) => {
      const filters = filtersOf(query);
      if (query.format === 'csv') {
        if (principal.role !== 'admin') throw forbidden('CSV export needs the admin role', { requiredRole: 'admin' });
        const stamp = new Date().toISOString().slice(0, 10);
        return {
          status: 200,
          body: auditCsvStream(deps.store.db, principal.orgId, filters),
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': `attachment; filename="lemma-audit-${principal.orgSlug}-${stamp}.csv"`,
          },
        };
      }
      const page = pageOf(query, 50);
      const { entries, total } = await listAuditEntries(deps.store.db, principal.orgId, filters, page);
      return list(entries, { total, ...page });
    },
  },
} satisfies Record<string, Operation>;
