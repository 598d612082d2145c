import type { OperationResult } from '../http/operation.js';

/** 303 to a page of this server, optionally setting cookies. */
export function seeOther(location: string, cookies: string[] = []): OperationResult {
  return { status: 303, body: undefined, headers: { Location: location, ...(cookies.length ? { 'Set-Cookie': cookies as unknown as string } : {}) } };
}

/** Where a failed sign-in lands: the sign-in page, saying why. */
export const signInFailed = (code: string, cookies: string[] = []) => seeOther(`/signin?error=${encodeURIComponent(code)}`, cookies);

/** Whether cookies must be `Secure`: the server is reached over https. */
export const secureCookies = (origin: string) => origin.startsWith('https:');
