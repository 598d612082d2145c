/**
 * The pieces every server-rendered page shares: escaping, the document around the content, and
 * the response headers. Plain HTML and one inline stylesheet (allowed by its hash): no script.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * A template tag that escapes every interpolated value, except a `Safe` one (already-built HTML)
 * and arrays (joined, each item escaped the same way).
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Safe {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Safe(out);
}

export class Safe {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value instanceof Safe) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #fff; --muted: #555; --line: #ccc; --accent: #0b57d0; --danger: #b3261e; --ok: #146c2e; }
@media (prefers-color-scheme: dark) { :root { --fg: #eee; --bg: #121212; --muted: #bbb; --line: #444; --accent: #8ab4f8; --danger: #f2b8b5; --ok: #8fd19e; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 56rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
.narrow { max-width: 28rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
p { margin: .5rem 0; }
a { color: var(--accent); }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input, select, button, .button { font: inherit; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: 6px; color: var(--fg); background: var(--bg); }
input[type=email], input[type=text] { width: 100%; }
button, .button { display: inline-block; margin-top: .75rem; cursor: pointer; text-decoration: none; background: var(--accent); color: var(--bg); border-color: var(--accent); font-weight: 600; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
button.danger { background: transparent; color: var(--danger); border-color: var(--danger); margin: 0; padding: .25rem .5rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.alert { border: 2px solid var(--danger); border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
.status { border: 2px solid var(--ok); border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
.alert:empty, .status:empty { display: none; }
.muted, .hint { color: var(--muted); }
.hint { font-size: .9rem; margin: .25rem 0 0; }
.providers { list-style: none; padding: 0; margin: 0; }
.providers li { margin: .5rem 0; }
.providers .button { width: 100%; text-align: center; margin: 0; }
hr { border: 0; border-top: 1px solid var(--line); margin: 1.5rem 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
code, .secret { font-family: ui-monospace, monospace; }
.secret { font-size: 1.05rem; width: 100%; padding: .75rem; }
.inline { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; }
.inline label { margin-top: 0; }
.inline button { margin-top: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.bar { display: flex; justify-content: space-between; align-items: center; gap: 1rem; flex-wrap: wrap; }
header.bar form button { margin: 0; }
`;

/**
 * The pages' Content-Security-Policy: nothing may load but the inline stylesheet above (by hash);
 * forms post only to this server; no page may be framed (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export interface PageOptions {
  title: string;
  /** A narrower column, for the sign-in forms. */
  narrow?: boolean;
  /** Extra elements in <head> (e.g. a meta refresh). */
  head?: Safe;
}

export function page(opts: PageOptions, body: Safe): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · Lemma</title>
${opts.head}<style>${new Safe(STYLE)}</style>
</head>
<body>
<main class="${opts.narrow ? 'narrow' : ''}">
${body}
</main>
</body>
</html>
`.value;
}

/** The headers of every page response (and of the pages' redirects). */
export function setPageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Not `no-referrer`: under it a browser sends `Origin: null` even on a same-origin form post, and
  // the Origin check (for browsers without Sec-Fetch-Site) could never pass. No other site gets one.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
  // Pages hold a CSRF token, a user's data, or a key shown once: never cached.
  ctx.set('Cache-Control', 'no-store');
}

export function sendPage(ctx: Context, status: number, document: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = document;
}

/** A readable date for an ISO timestamp, in a <time> element carrying the exact value. */
export function time(iso: string | null | undefined, empty = '—'): Safe {
  if (!iso) return html`<span class="muted">${empty}</span>`;
  const shown = iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
  return html`<time datetime="${iso}">${shown}</time>`;
}
