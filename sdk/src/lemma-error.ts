import type { ErrorBody } from './gen/index.js';

/** The error codes of the contract's error envelope (`ErrorBody.error.code`). */
export type ApiErrorCode = ErrorBody['error']['code'];

/**
 * Every code a {@link LemmaError} can carry: the contract's codes, plus two raised by the SDK
 * itself. `NETWORK_ERROR`: no HTTP response at all (refused, DNS, TLS, reset); `status` is 0.
 * `UNEXPECTED_RESPONSE`: a non-2xx response that is not the JSON error envelope (e.g. a proxy's
 * HTML 502). A code added to the contract after this SDK was built passes through unchanged.
 */
export type LemmaErrorCode = ApiErrorCode | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE' | (string & {});

/** What a {@link LemmaError} is built from. */
export interface LemmaErrorInit {
  status: number;
  code: LemmaErrorCode;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string | undefined;
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/** The one error type every failed SDK call rejects with (except a caller's own abort). */
export class LemmaError extends Error {
  override readonly name = 'LemmaError';
  /** The HTTP status, or 0 when no response arrived (`NETWORK_ERROR`). */
  readonly status: number;
  readonly code: LemmaErrorCode;
  /** The envelope's `details`; for `VALIDATION_ERROR`, `field` (dotted path) and `issue`. */
  readonly details: Record<string, unknown>;
  /** The response's `X-Request-Id` (quote it when reporting a problem). */
  readonly requestId: string | undefined;
  /** From `Retry-After` on 429 responses. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: LemmaErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** The envelope this error stands for, e.g. for `--json` output. */
  toJSON(): { error: { code: string; message: string; details: Record<string, unknown> }; status: number; requestId?: string } {
    return {
      error: { code: this.code, message: this.message, details: this.details },
      status: this.status,
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isErrorEnvelope(body: unknown): body is ErrorBody {
  if (!isRecord(body) || !isRecord(body['error'])) return false;
  const { code, message } = body['error'];
  return typeof code === 'string' && typeof message === 'string';
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Builds the error for a non-2xx response whose body the client has already read. */
export function errorFromResponse(body: unknown, response: Response): LemmaError {
  const requestIdHeader = response.headers.get('X-Request-Id') ?? undefined;
  const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
  if (isErrorEnvelope(body)) {
    const details = isRecord(body.error.details) ? body.error.details : {};
    const detailRequestId = typeof details['requestId'] === 'string' ? details['requestId'] : undefined;
    return new LemmaError({
      status: response.status,
      code: body.error.code,
      message: body.error.message,
      details,
      requestId: requestIdHeader ?? detailRequestId,
      retryAfterSeconds,
    });
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new LemmaError({
    status: response.status,
    code: 'UNEXPECTED_RESPONSE',
    message: `HTTP ${statusLine} from ${response.url || 'the server'} without a Lemma error envelope`,
    details: text ? { body: text.slice(0, 500) } : {},
    requestId: requestIdHeader,
    retryAfterSeconds,
  });
}

/** Builds the error for a request that got no response (fetch rejected). */
export function errorFromNetworkFailure(cause: unknown, request: Request | undefined): LemmaError {
  // Node's fetch rejects with TypeError('fetch failed') and puts the reason in `cause`.
  const reason =
    cause instanceof Error && cause.cause instanceof Error
      ? cause.cause.message
      : cause instanceof Error
        ? cause.message
        : String(cause);
  const target = request ? `${request.method} ${request.url}` : 'the server';
  return new LemmaError({
    status: 0,
    code: 'NETWORK_ERROR',
    message: `Could not reach Lemma (${target}): ${reason}`,
    cause,
  });
}

/** True for the rejections a caller causes on purpose with an AbortSignal. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
