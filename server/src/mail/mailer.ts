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
 * SMTP (nodemailer) when `smtpUrl` is set; otherwise each message is written to the server log
 * as a development outbox.
 */
export function createMailer(opts: { smtpUrl: string | undefined; from: string }, logger: Logger): Mailer {
  if (!opts.smtpUrl) {
    return {
      // Written at once, when send is called: the outbox shows the mail even if nobody awaits it.
      async send(message) {
        logger.info({ outbox: { to: message.to, subject: message.subject, text: message.text } }, 'mail written to the dev outbox');
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(message) {
      const info = await transport.sendMail({ from: opts.from, ...message });
      logger.info({ mail: { to: message.to, subject: message.subject, messageId: info.messageId } }, 'mail sent');
    },
  };
}
