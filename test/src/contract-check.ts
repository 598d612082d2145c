import type { OpenAPIBackend, Operation } from 'openapi-backend';
import { contractBackend, loadContract } from '@lemma/server';

/** A response that does not match openapi.yaml: the test that saw it fails. */
export class ContractViolation extends Error {}

/** Every violation seen; the harness fails the test that produced one (see harness.ts). */
export const violations: string[] = [];

let api: Promise<OpenAPIBackend> | undefined;

/** openapi-backend over the same contract, used here only to validate responses. */
const contractApi = () => (api ??= contractBackend(loadContract(), { forRequests: false }));

/**
 * Checks one response against the contract: the status is documented for the operation, the
 * JSON body matches that status's schema, the documented headers are present.
 */
export async function checkResponse(method: string, url: URL, response: Response): Promise<void> {
  const backend = await contractApi();
  const operation: Operation | undefined = backend.router.matchOperation({ method, path: url.pathname, headers: {}, query: url.search.slice(1) });
  const where = `${method} ${url.pathname}${url.search} -> ${response.status}`;
  if (!operation) {
    if (response.status === 404) return; // unknown route: the envelope is checked by the tests
    throw new ContractViolation(`${where}: no operation in openapi.yaml`);
  }
  const documented = operation.responses?.[String(response.status)] as { content?: Record<string, unknown>; headers?: Record<string, unknown> } | undefined;
  if (!documented) throw new ContractViolation(`${where}: status not documented for ${operation.operationId}`);
  if (!response.headers.get('x-request-id')) throw new ContractViolation(`${where}: no X-Request-Id`);
  // Documented headers are expected on every response, unless marked `required: false`.
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    if ((header as { required?: boolean }).required === false) continue;
    if (!response.headers.has(name)) throw new ContractViolation(`${where}: missing documented header ${name}`);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  // A response documented without content (204, a redirect) must have no body.
  if (!documented.content) {
    if (type !== '' && (await response.clone().text()) !== '') throw new ContractViolation(`${where}: a body where none is documented`);
    return;
  }
  if (!documented.content[type]) throw new ContractViolation(`${where}: content type ${type} not documented`);
  if (type !== 'application/json') return;
  const body: unknown = await response.clone().json();
  const result = backend.validator.validateResponse(body, operation, response.status);
  if (result.errors?.length) {
    throw new ContractViolation(`${where}: body does not match openapi.yaml: ${JSON.stringify(result.errors.slice(0, 3))}\n${JSON.stringify(body).slice(0, 800)}`);
  }
}

/** A fetch that checks every response against the contract before handing it back. */
export function contractCheckingFetch(): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    try {
      await checkResponse(request.method, new URL(request.url), response);
    } catch (err) {
      violations.push(err instanceof Error ? err.message : String(err));
      throw err;
    }
    return response;
  };
}
