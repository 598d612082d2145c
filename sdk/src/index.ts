// @lemma/sdk: the client generated from openapi.yaml (./gen, never edited by hand) and a thin
// layer over it: client setup and auth, one error type, pagination.
export * from './gen/index.js';
export type { Client, Config, RequestResult } from './gen/client/index.js';

export {
  createLemmaClient,
  DEFAULT_BASE_URL,
  normalizeBaseUrl,
  type LemmaClient,
  type LemmaClientOptions,
} from './create-lemma-client.js';
export { LemmaError, type ApiErrorCode, type LemmaErrorCode, type LemmaErrorInit } from './lemma-error.js';
export { MAX_PAGE_SIZE, paginate, type Page, type PaginateOptions } from './paginate.js';
