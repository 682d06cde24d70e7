// Outgoing mail through nodemailer: real SMTP when SMTP_URL is set, otherwise .eml files in
// MAIL_DIR (default var/mail/) plus a one-line log, so a fresh machine can still sign up.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import type { Logger } from '../../log';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

function smtpMailer(smtpUrl: string, from: string, log: Logger): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
    },
  };
}

function fileMailer(dir: string, from: string, log: Logger): Mailer {
  // nodemailer builds the complete RFC 822 message (headers encoded), we only store it.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      // No mail server here: the text (a verification code among it) is in this line too.
      log.info({ to: message.to, subject: message.subject, file, text: message.text }, `mail to ${message.to} written to ${file}: ${message.subject}`);
    },
  };
}

export function createMailer(config: Config, log: Logger): Mailer {
  const mailLog = log.child({ feature: 'mail' });
  return config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom, mailLog) : fileMailer(config.mailDir, config.mailFrom, mailLog);
}
