import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when `smtpUrl` is set; otherwise nodemailer's JSON transport, with each message written to
 * the server log as a development outbox.
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string }, logger: Logger): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      if (!opts.smtpUrl) {
        logger.info({ outbox: { to: message.to, subject: message.subject, text: message.text } }, 'mail written to the dev outbox');
      } else {
        logger.info({ mail: { to: message.to, subject: message.subject, messageId: info.messageId } }, 'mail sent');
      }
    },
  };
}
