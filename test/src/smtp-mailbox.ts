/**
 * A real SMTP server (the `smtp-server` package) on a loopback port, keeping every message it
 * receives: the server under test sends its mail there through `LEMMA_SMTP_URL`, as to any relay.
 * Plain SMTP without STARTTLS or AUTH, like a local relay; stopped after the file's tests.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  from: string;
  /** Header names lower-cased; the last value of a repeated header. */
  headers: Record<string, string>;
  /** The body, its transfer encoding (quoted-printable, base64) decoded. */
  text: string;
  raw: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for LEMMA_SMTP_URL. */
  readonly url: string;
  readonly messages: ReceivedMail[];
  /** The next message to this address after the given count, waiting for it up to `timeoutMs`. */
  waitFor(to: string, opts?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  /** The sign-in link in a mail. */
  linkIn(mail: ReceivedMail): string;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          ...parseMessage(raw),
          raw,
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const mailbox: Mailbox = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, { after = 0, timeoutMs = 10_000 } = {}) {
      const find = () => messages.slice(after).find((m) => m.to.includes(to));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms (${messages.length} received in all)`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    linkIn(mail) {
      const link = /(https?:\/\/\S+\/api\/v1\/auth\/magic-link\/verify\?token=[\w-]+)/.exec(mail.text)?.[1];
      if (!link) throw new Error(`no sign-in link in the mail:\n${mail.text}`);
      return link;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  afterAll(() => mailbox.close());
  return mailbox;
}

/** Headers and a single-part body (what the server sends: one text/plain part). */
function parseMessage(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    text = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    text = Buffer.from(text, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { headers, text };
}
