/** The sign-in page (`/signin`): a magic link by email, the configured OAuth providers, and SSO. */
import type { Config, OAuthProviderName } from '../config.js';
import { html, page, type Safe } from './html.js';

export const OAUTH_PROVIDERS = ['github', 'google', 'linkedin'] as const satisfies readonly OAuthProviderName[];

const PROVIDER_LABELS: Record<OAuthProviderName, string> = { github: 'GitHub', google: 'Google', linkedin: 'LinkedIn' };

/**
 * The OAuth providers this server is configured for (`LEMMA_OAUTH_<P>_CLIENT_ID`, read into
 * `config.oauth.providers`), in a fixed order: the single place the page learns them.
 */
export function configuredOAuthProviders(config: Config): OAuthProviderName[] {
  return OAUTH_PROVIDERS.filter((p) => config.oauth.providers[p] !== undefined);
}

/** `?error=` codes (from the sign-in endpoints' redirects and these pages) as sentences. */
const ERRORS: Record<string, string> = {
  // Magic links (sign-in.operations.ts) and these pages.
  invalid_link: 'That sign-in link is invalid, was already used, or has expired. Ask for a new one below.',
  session_ended: 'Your session has ended. Please sign in again.',
  sso_unavailable: 'Single sign-on is not set up for that organization. Check its short name, or sign in another way.',
  // OAuth providers (oauth.ts) and SSO (sso-flow.ts).
  invalid_state: 'The sign-in took too long or was started in another window. Please try again.',
  oauth_denied: 'Sign-in was cancelled at the provider.',
  sso_denied: 'Sign-in was cancelled at your organization’s identity provider.',
  oauth_failed: 'The provider could not sign you in. Please try again, or sign in another way.',
  sso_failed: 'Your organization’s identity provider could not sign you in. Please try again, or sign in another way.',
  email_missing: 'The identity provider did not tell us your email address, so it cannot sign you in.',
  email_not_verified: 'The provider has not verified your email address, so it cannot sign you in.',
  domain_not_allowed: 'Your email domain is not allowed to sign in to that organization.',
  no_account: 'There is no Lemma account for that email address. Ask an administrator of your organization to invite you.',
};
const GENERIC_ERROR = 'Sign-in did not complete. Please try again, or use another way to sign in.';

/** The message for an `?error=` code; unknown codes get a generic sentence (and are never echoed raw). */
export function signInErrorMessage(code: string): string {
  return Object.hasOwn(ERRORS, code) ? ERRORS[code]! : GENERIC_ERROR;
}

const NOTICES: Record<string, string> = {
  signed_out: 'You have signed out.',
};
export const signInNotice = (code: string): string | undefined => (Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined);

export interface SignInView {
  providers: readonly OAuthProviderName[];
  /** A message for the whole page (role=alert). */
  error?: string | undefined;
  /** A confirmation (role=status). */
  notice?: string | undefined;
  /** The email field's value and its own error, after a refused submission. */
  email?: string | undefined;
  emailError?: string | undefined;
  org?: string | undefined;
  orgError?: string | undefined;
  /** The address of a valid session, if the visitor is signed in already. */
  signedInAs?: string | undefined;
}

function fieldError(id: string, message: string | undefined): Safe {
  return message ? html`<p id="${id}" role="alert" class="hint alert">${message}</p>` : html``;
}

export function signInPage(v: SignInView): string {
  const emailDescribedBy = ['email-hint', v.emailError ? 'email-error' : ''].filter(Boolean).join(' ');
  const orgDescribedBy = ['org-hint', v.orgError ? 'org-error' : ''].filter(Boolean).join(' ');
  return page({ title: 'Sign in', narrow: true }, html`
<h1>Sign in to Lemma</h1>
${v.error ? html`<div role="alert" class="alert">${v.error}</div>` : ''}
${v.notice ? html`<div role="status" class="status">${v.notice}</div>` : ''}
${v.signedInAs ? html`<p role="status" class="status">You are signed in as <strong>${v.signedInAs}</strong>. <a href="/account">Go to your account</a>.</p>` : ''}
<form method="post" action="/signin">
  <label for="email">Email address</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="320" value="${v.email ?? ''}" aria-describedby="${emailDescribedBy}"${v.emailError ? html` aria-invalid="true"` : ''}>
  ${fieldError('email-error', v.emailError)}
  <p id="email-hint" class="hint">We will email you a link that signs you in. It works once, within 15 minutes.</p>
  <button type="submit">Email me a sign-in link</button>
</form>
${v.providers.length ? html`
<hr>
<h2>Or continue with</h2>
<ul class="providers">
${v.providers.map((p) => html`  <li><a class="button secondary" href="/api/v1/auth/oauth/${p}/start">Continue with ${PROVIDER_LABELS[p]}</a></li>
`)}</ul>` : ''}
<hr>
<h2>Single sign-on</h2>
<form method="get" action="/signin/sso">
  <label for="org">Organization</label>
  <input id="org" name="org" type="text" required minlength="2" maxlength="63" autocapitalize="none" spellcheck="false" value="${v.org ?? ''}" aria-describedby="${orgDescribedBy}"${v.orgError ? html` aria-invalid="true"` : ''}>
  ${fieldError('org-error', v.orgError)}
  <p id="org-hint" class="hint">Your organization's short name, as in its Lemma address (for example <code>acme-corp</code>).</p>
  <button type="submit" class="secondary">Continue with single sign-on</button>
</form>
`);
}

/** After POST /signin: the same page whether or not the address has an account. */
export function checkEmailPage(email: string): string {
  return page({ title: 'Check your email', narrow: true }, html`
<h1>Check your email</h1>
<div role="status" class="status">
  <p>If <strong>${email}</strong> belongs to a Lemma account, we have sent it a sign-in link.</p>
</div>
<p>The link works once, within 15 minutes. Open it in this browser to sign in.</p>
<p>No email after a few minutes? Check your spam folder, or <a href="/signin">ask for a new link</a>.</p>
`);
}

/**
 * On the way to an organization's identity provider. A meta refresh (and a link), not a redirect:
 * a form's redirect to another origin would be blocked by the `form-action 'self'` policy.
 */
export function ssoContinuePage(slug: string): string {
  const start = `/api/v1/auth/sso/${encodeURIComponent(slug)}/start`;
  return page({ title: 'Single sign-on', narrow: true, head: html`<meta http-equiv="refresh" content="0; url=${start}">\n` }, html`
<h1>Single sign-on</h1>
<p>Taking you to the sign-in page of <strong>${slug}</strong>…</p>
<p><a class="button" href="${start}">Continue to your organization's sign-in</a></p>
`);
}
