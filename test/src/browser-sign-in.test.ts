// A person signing in with a real browser: headless Chromium (Debian's `chromium`, driven by
// playwright-core) fills in /signin, the magic link is read from a real SMTP server, and following
// it lands on the account page. .ci/run installs chromium; without it this test is skipped.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, startTestServer, type Tenant, type TestServer } from './harness.js';
import { type Mailbox, startMailbox } from './smtp-mailbox.js';

const CHROMIUM = process.env.LEMMA_TEST_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
const title = haveChromium
  ? `signing in through /signin in a browser [${dialect}]`
  : `signing in through /signin in a browser [${dialect}] (SKIPPED: no Chromium at ${CHROMIUM}; apt-get install -y chromium)`;

describe.skipIf(!haveChromium)(title, () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let browser: Browser;
  let t: Tenant;
  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startTestServer({ LEMMA_SMTP_URL: mailbox.url, LEMMA_RATE_LIMIT_STRICT: '1000' });
    t = await server.newTenant('browser');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Chromium's sandbox cannot run as root (CI runs as root).
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('types the email, gets the link by mail, follows it and sees the account page', { timeout: 60_000 }, async () => {
    const email = `admin@${t.slug}.test`;
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    // The page's policy must hold without violations: nothing blocked, no script errors.
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    await page.goto(`${server.url}/signin`);
    expect(await page.title()).toBe('Sign in · Lemma');
    await page.getByLabel('Email address').fill(email);
    const before = mailbox.messages.length;
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Check your email');
    expect(await page.getByRole('status').textContent()).toContain(email);

    const mail = await mailbox.waitFor(email, { after: before });
    await page.goto(mailbox.linkIn(mail));
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your account');
    expect(await page.locator('#user-email').textContent()).toBe(email);
    expect(await page.getByRole('cell', { name: t.slug, exact: true }).count()).toBe(1);

    // A key created from the page is shown once; the session's cookie and CSRF token did it.
    await page.getByLabel('Name').fill('from-the-browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API key created');
    const key = await page.getByLabel(/The key “from-the-browser”/).inputValue();
    expect(key).toMatch(/^lemma_pk_[0-9a-f]{32}$/);
    expect((await server.fetch(`/orgs/${t.slug}/members`, { apiKey: key })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('You have signed out.');
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await context.cookies()).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
