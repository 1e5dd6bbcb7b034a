/** Sends mail: over SMTP when SMTP_URL is set, otherwise as .eml files in the outbox (embedded default). */
import type { TLogger } from '../lib/logger';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { TRenderedMail } from './render';

export type TOutgoingMail = TRenderedMail & { to: string };

export type TMailer = {
  send: (mail: TOutgoingMail) => Promise<void>;
  close: () => void;
};

export type TMailerOptions = {
  from: string;
  logger: TLogger;
  /** smtp://user:pass@host:port — when absent, mails go to outboxDir */
  smtpUrl?: string | undefined;
  outboxDir: string;
};

export function createMailer(opts: TMailerOptions): TMailer {
  if (opts.smtpUrl) return createSmtpMailer(opts.smtpUrl, opts);
  return createOutboxMailer(opts);
}

function toMessage(from: string, mail: TOutgoingMail): nodemailer.SendMailOptions {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // Quoted-printable keeps links readable in the raw message (outbox files, SMTP captures),
    // where base64 would hide them for mostly-Chinese text.
    textEncoding: 'quoted-printable',
  };
}

function createSmtpMailer(smtpUrl: string, opts: TMailerOptions): TMailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async (mail) => {
      const info = await transport.sendMail(toMessage(opts.from, mail));
      // Never the link here: it carries a live code.
      opts.logger.info(
        { to: mail.to, subject: mail.subject, messageId: info.messageId },
        'mail sent',
      );
    },
    close: () => transport.close(),
  };
}

function createOutboxMailer(opts: TMailerOptions): TMailer {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  let seq = 0;
  return {
    send: async (mail) => {
      const message = toMessage(opts.from, mail);
      // Outbox only: the link unencoded in a header, so a developer or the e2e suite can grep it from the .eml.
      // `prepared` stops header folding, so the whole link sits on one line.
      if (mail.link) message.headers = { 'X-Outbox-Link': { prepared: true, value: mail.link } };
      const info = await transport.sendMail(message);
      await mkdir(opts.outboxDir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_');
      const file = path.join(
        opts.outboxDir,
        `${Date.now()}-${String(++seq).padStart(4, '0')}-${safeTo}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      // Dev-mode only: with no SMTP server configured, logging the link is how a developer (or the
      // e2e suite) follows it. In SMTP mode the link is never logged.
      opts.logger.info(
        { to: mail.to, subject: mail.subject, link: mail.link, file },
        'mail written to outbox',
      );
    },
    close: () => transport.close(),
  };
}
