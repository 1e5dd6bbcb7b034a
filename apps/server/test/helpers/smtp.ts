/** A real SMTP server in-process (smtp-server) that keeps every message, so tests read mails as a user would. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type TCapturedMail = { to: string[]; raw: string; text: string };

export type TSmtpCapture = {
  url: string;
  mails: TCapturedMail[];
  /** Resolves with the next mail to `to` not returned before. */
  nextMailTo: (to: string, timeoutMs?: number) => Promise<TCapturedMail>;
  countTo: (to: string) => number;
  close: () => Promise<void>;
};

/** Undoes quoted-printable (soft breaks and =XX bytes) so links and UTF-8 text read plainly. */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const m = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(m[1]!, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export async function startSmtpCapture(): Promise<TSmtpCapture> {
  const mails: TCapturedMail[] = [];
  const taken = new Set<TCapturedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          text: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    countTo: (to) => mails.filter((m) => m.to.includes(to.toLowerCase())).length,
    nextMailTo: async (to, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The action link of a mail: the first http(s) URL carrying ?code=. */
export function linkOf(mail: TCapturedMail): URL {
  const m = /https?:\/\/[^\s"<>]+\?code=[A-Za-z0-9_-]+/.exec(mail.text);
  if (!m) throw new Error(`no link in mail:\n${mail.text.slice(0, 2000)}`);
  return new URL(m[0]);
}

export function subjectOf(mail: TCapturedMail): string {
  // Subjects are RFC 2047 encoded-words; decode the Q-encoded UTF-8 chunks nodemailer writes.
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=\s*/gi, (_m, q: string) =>
      decodeQuotedPrintable(q.replace(/_/g, ' ')),
    )
    .trim();
}
