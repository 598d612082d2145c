import type { Operation as ApiOperation, OpenAPIRouter } from 'openapi-backend';

/**
 * Makes openapi-backend's router do its per-request work once, at start-up, with the same results.
 *
 * Why: profiling `GET /orgs/{slug}/members` (docs/PERFORMANCE.md) showed openapi-backend 5.21's
 * router spending most of each request on work that depends only on the contract:
 * `getOperations()` rebuilds the flattened list of all ~60 operations through lodash on every
 * call, `matchOperation()` calls it twice per request and then builds a new RegExp for every
 * operation's path template, and `getOperation(id)` is a linear search over a freshly built list.
 * The contract does not change once the server runs, so this builds the list once, indexes it, and
 * compiles each path template to a RegExp once. What is matched, and which operation wins, is
 * unchanged (exact path first, then templates by specificity, 404/405 as before); request
 * parsing and validation are still openapi-backend's own.
 *
 * Call after `api.init()`.
 */
export function precompileRouting(router: OpenAPIRouter<any>): void {
  const root = router.apiRoot.replace(/\/$/, '');
  const underRoot = (path: string) => (root === '' ? path.startsWith('/') : path === root || path.startsWith(`${root}/`));
  const operations = router.getOperations();
  const byId = new Map(operations.filter((op) => op.operationId).map((op) => [op.operationId!, op]));

  // Exact path -> method -> operation (first one listed wins, as with Array#find).
  const exact = new Map<string, Map<string, ApiOperation>>();
  for (const op of operations) {
    const methods = exact.get(op.path) ?? new Map<string, ApiOperation>();
    if (!methods.has(op.method)) methods.set(op.method, op);
    exact.set(op.path, methods);
  }
  // Every operation as a template, most specific (longest literal part) first; the sort is stable
  // so ties keep document order, as lodash's orderBy does.
  const templates = operations
    .map((op) => ({ op, pattern: new RegExp(pathTemplateToPattern(op.path)), specificity: op.path.replace(/\{.*?\}/g, '').length }))
    .sort((a, b) => b.specificity - a.specificity);

  router.getOperations = () => operations;
  router.getOperation = (operationId: string) => byId.get(operationId);
  router.matchOperation = ((req: Parameters<OpenAPIRouter['matchOperation']>[0], strict?: boolean) => {
    const normalized = router.normalizeRequest(req);
    if (!underRoot(normalized.path)) {
      if (strict) throw Error('404-notFound: no route matches request');
      return undefined;
    }
    const path = router.normalizePath(normalized.path);
    const exactMatch = exact.get(path)?.get(normalized.method);
    if (exactMatch) return exactMatch;
    let pathMatched = false;
    for (const t of templates) {
      if (!t.pattern.test(path)) continue;
      pathMatched = true;
      if (t.op.method === normalized.method) return t.op;
    }
    if (strict) {
      throw Error(pathMatched ? '405-methodNotAllowed: this method is not registered for the route' : '404-notFound: no route matches request');
    }
    return undefined;
  }) as OpenAPIRouter['matchOperation'];
}

/** openapi-backend's own conversion: `/orgs/{slug}` -> `^/orgs/[^/]+$`, literal parts escaped. */
function pathTemplateToPattern(path: string): string {
  const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^${path.replace(/\{[^}]+\}/g, '\0').split('\0').map(escape).join('[^/]+')}$`;
}
