// A real SMTP receiver for tests (smtp-server + mailparser): the server under test sends mail
// to it over TCP, and tests wait for the messages they expect.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: ParsedMail;
}

export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  private waiters: Array<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = [];
  private server: SMTPServer;
  /** When set, every message is refused with this SMTP error (tests of mail failures). */
  failWith: string | null = null;
  /** Recipients refused at RCPT TO (tests of a mail failure for some members only). */
  readonly refuse = new Set<string>();
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refuse.has(address.address.toLowerCase())) callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
        else callback();
      },
      onData: (stream, _session, callback) => {
        if (this.failWith) {
          stream.resume();
          stream.on('end', () => callback(Object.assign(new Error(this.failWith ?? 'refused'), { responseCode: 554 })));
          return;
        }
        simpleParser(stream).then(
          (parsed) => {
            const to = ([] as { value: { address?: string }[] }[])
              .concat(parsed.to ?? [])
              .flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
            const mail: ReceivedMail = {
              to,
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              raw: parsed,
            };
            this.mails.push(mail);
            this.waiters = this.waiters.filter((w) => {
              if (!w.match(mail)) return true;
              w.resolve(mail);
              return false;
            });
            callback();
          },
          (err) => callback(err),
        );
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Resolves with the first mail (already received or still to come) to that address. */
  waitFor(to: string, timeoutMs = 10_000, since = 0): Promise<ReceivedMail> {
    const address = to.toLowerCase();
    const match = (m: ReceivedMail) => m.to.includes(address);
    const existing = this.mails.slice(since).find(match);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  /** The 6-digit code in the newest mail to that address. */
  async codeFor(to: string, since = 0): Promise<string> {
    const mail = await this.waitFor(to, 10_000, since);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no 6-digit code in mail to ${to}: ${mail.text}`);
    return code;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
