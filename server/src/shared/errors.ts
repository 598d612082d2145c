/** The closed set of error codes of the contract (spec §7). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR';

export const statusOf: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
};

/** A domain error; only the HTTP edge turns it into a status code and an envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (field: string, issue: string) =>
  new AppError('VALIDATION_ERROR', `${field}: ${issue}`, { field, issue });
export const notFound = (what: string, details: Record<string, unknown> = {}) =>
  new AppError('NOT_FOUND', `${what} not found`, details);
export const conflict = (message: string, details: Record<string, unknown> = {}) =>
  new AppError('CONFLICT', message, details);
export const forbidden = (message: string, details: Record<string, unknown> = {}) =>
  new AppError('FORBIDDEN', message, details);
export const unauthorized = (message = 'Invalid or missing API key') => new AppError('UNAUTHORIZED', message);
