import { LemmaError } from '@lemma/sdk';

/** The exit codes of `lemma` (also in `lemma --help` and the README). */
export const EXIT = {
  ok: 0,
  /** The API refused the request (4xx/5xx other than authentication), or the server is unreachable. */
  api: 1,
  /** The command line is wrong: unknown command or flag, a missing or malformed argument. */
  usage: 2,
  /** No credentials, or the server refused them (401). */
  auth: 3,
  /** A question paused at a gate and there is no terminal to ask it on: answer with `lemma resume`. */
  paused: 4,
} as const;

/** An error the CLI reports itself, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string, hint?: string) => new CliError(message, EXIT.usage, hint);

/** How an error is shown (no stack traces) and the code the process exits with. */
export function describeError(err: unknown): { lines: string[]; exitCode: number } {
  if (err instanceof CliError) return { lines: [`error: ${err.message}`, ...(err.hint ? [err.hint] : [])], exitCode: err.exitCode };
  if (err instanceof LemmaError) {
    if (err.code === 'NETWORK_ERROR') return { lines: [`error: ${err.message}`, 'Is the server running? Check --base-url, LEMMA_BASE_URL or `lemma login`.'], exitCode: EXIT.api };
    const field = typeof err.details.field === 'string' ? ` (field: ${err.details.field})` : '';
    const lines = [`error: ${err.code}: ${err.message}${field}`];
    if (err.requestId) lines.push(`request id: ${err.requestId}`);
    if (err.status === 401) {
      lines.push('Your API key was refused (unknown, revoked or expired): run `lemma login` with a valid key.');
      return { lines, exitCode: EXIT.auth };
    }
    if (err.status === 429 && err.retryAfterSeconds !== undefined) lines.push(`Rate limited: retry after ${err.retryAfterSeconds} s.`);
    return { lines, exitCode: EXIT.api };
  }
  return { lines: [`error: ${err instanceof Error ? err.message : String(err)}`], exitCode: EXIT.api };
}
