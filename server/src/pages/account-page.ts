/** The signed-in page (`/account`): the user, their organizations, and API keys where they are admin. */
import type { ApiKey } from '../api-keys/api-keys.service.js';
import { ROLES, type Role } from '../auth/roles.js';
import { CSRF_FIELD } from './csrf.js';
import { html, page, time } from './html.js';

export interface AccountOrg {
  slug: string;
  name: string;
  role: string;
  /** Present for organizations where the user is admin. */
  keys?: { items: ApiKey[]; total: number };
}

export interface AccountView {
  email: string;
  csrf: string;
  orgs: AccountOrg[];
  notice?: string | undefined;
  error?: string | undefined;
  /** After a refused create: which organization's form, and what was typed. */
  createForm?: { slug: string; name: string; role: string } | undefined;
}

export const KEYS_SHOWN = 100;

const NOTICES: Record<string, string> = {
  key_revoked: 'The API key was revoked. Requests made with it are refused from now on.',
};
export const accountNotice = (code: string): string | undefined => (Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined);

const csrfInput = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

export function signOutForm(csrf: string) {
  return html`<form method="post" action="/account/sign-out">${csrfInput(csrf)}<button type="submit" class="secondary">Sign out</button></form>`;
}

export function accountPage(v: AccountView): string {
  return page({ title: 'Your account' }, html`
<header class="bar">
  <h1>Your account</h1>
  ${signOutForm(v.csrf)}
</header>
${v.error ? html`<div role="alert" class="alert">${v.error}</div>` : ''}
${v.notice ? html`<div role="status" class="status">${v.notice}</div>` : ''}
<p>Signed in as <strong id="user-email">${v.email}</strong>.</p>

<h2 id="orgs-heading">Organizations</h2>
${v.orgs.length === 0 ? html`<p>You are not a member of any organization yet. Ask an administrator to invite you.</p>` : html`
<table aria-labelledby="orgs-heading">
  <thead><tr><th scope="col">Short name</th><th scope="col">Name</th><th scope="col">Your role</th></tr></thead>
  <tbody>
${v.orgs.map((o) => html`    <tr><td><code>${o.slug}</code></td><td>${o.name}</td><td>${o.role}</td></tr>
`)}  </tbody>
</table>`}
${v.orgs.filter((o) => o.keys).map((o) => keysSection(o, v))}
`);
}

function keysSection(org: AccountOrg, v: AccountView) {
  const { items, total } = org.keys!;
  const id = `keys-${org.slug}`;
  const form = v.createForm?.slug === org.slug ? v.createForm : undefined;
  return html`
<section aria-labelledby="${id}">
<h2 id="${id}">API keys of ${org.name} (<code>${org.slug}</code>)</h2>
${items.length === 0 ? html`<p>No API keys yet.</p>` : html`
<table aria-labelledby="${id}">
  <thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>
${items.map((k) => html`    <tr>
      <td>${k.name}</td><td><code>${k.start}…</code></td><td>${k.role}</td><td>${time(k.createdAt)}</td><td>${time(k.lastUsedAt, 'never')}</td><td>${time(k.revokedAt, 'no')}</td>
      <td>${k.revokedAt ? '' : html`<form method="post" action="/account/orgs/${encodeURIComponent(org.slug)}/api-keys/${encodeURIComponent(k.id)}/revoke">${csrfInput(v.csrf)}<button type="submit" class="danger">Revoke<span class="visually-hidden"> key ${k.name}</span></button></form>`}</td>
    </tr>
`)}  </tbody>
</table>
${total > items.length ? html`<p class="muted">Showing the newest ${items.length} of ${total} keys.</p>` : ''}`}
<h3 id="${id}-create">Create a key</h3>
<form method="post" action="/account/orgs/${encodeURIComponent(org.slug)}/api-keys" class="inline" aria-labelledby="${id}-create">
  ${csrfInput(v.csrf)}
  <div><label for="${id}-name">Name</label><input id="${id}-name" name="name" type="text" required maxlength="100" value="${form?.name ?? ''}"></div>
  <div><label for="${id}-role">Role</label><select id="${id}-role" name="role">
${roleOptions(org.role, form?.role ?? 'author')}  </select></div>
  <button type="submit">Create key</button>
</form>
<p class="hint">A key acts for you, with at most your role, and has the inference permission. It is shown once, when created.</p>
</section>`;
}

function roleOptions(memberRole: string, selected: string) {
  const allowed = ROLES.slice(0, ROLES.indexOf(memberRole as Role) + 1);
  return allowed.map((r) => html`    <option value="${r}"${r === selected ? html` selected` : ''}>${r}</option>
`);
}

/** The result of creating a key: the only time its plaintext is shown. */
export function keyCreatedPage(v: { key: ApiKey & { key: string }; org: { slug: string; name: string }; csrf: string }): string {
  return page({ title: 'API key created' }, html`
<header class="bar">
  <h1>API key created</h1>
  ${signOutForm(v.csrf)}
</header>
<div role="alert" class="alert">
  <p><strong>Copy this key now: it will not be shown again.</strong> Lemma keeps only a digest of it. If you lose it, revoke it and create another.</p>
</div>
<label for="new-key">The key “${v.key.name}” for ${v.org.name} (<code>${v.org.slug}</code>), role ${v.key.role}</label>
<input id="new-key" class="secret" type="text" readonly value="${v.key.key}" autocomplete="off" spellcheck="false">
<p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<p><a class="button" href="/account">Back to your account</a></p>
`);
}

/** Any refusal or failure, as a page. */
export function messagePage(title: string, message: string, link: { href: string; text: string } = { href: '/account', text: 'Back to your account' }): string {
  return page({ title, narrow: true }, html`
<h1>${title}</h1>
<div role="alert" class="alert">${message}</div>
<p><a href="${link.href}">${link.text}</a></p>
`);
}
