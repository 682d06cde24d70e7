import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { api } from '@common/api';
import { loadConfig } from '../../src/config';
import { createMailer } from '../../src/features/mail/mailer';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { SmtpReceiver } from '../support/smtp';
import { startTestServer } from '../support/test-server';

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { log, lines };
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-mail-'));

describe('the mailer', () => {
  let smtp: SmtpReceiver;
  before(async () => {
    smtp = await new SmtpReceiver().start();
  });
  after(async () => {
    await smtp?.stop();
  });

  it('delivers over SMTP from MAIL_FROM with a Korean subject and text intact', async () => {
    const config = loadConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'Chat <chat@example.test>' });
    const { log, lines } = capturingLogger();
    await createMailer(config, log).send({ to: 'kim@example.test', subject: '안녕하세요', text: '본문입니다', html: '<p>본문입니다</p>' });
    const mail = await smtp.waitFor('kim@example.test');
    expect(mail.subject).to.equal('안녕하세요');
    expect(mail.text.trim()).to.equal('본문입니다');
    expect(mail.from).to.contain('chat@example.test');
    expect(lines.some((l) => l.to === 'kim@example.test' && l.subject === '안녕하세요')).to.equal(true);
  });

  it('without SMTP_URL writes an .eml file to MAIL_DIR and logs a one-line summary with recipient and subject', async () => {
    const dir = tempDir();
    try {
      const config = loadConfig({ MAIL_DIR: dir });
      const { log, lines } = capturingLogger();
      await createMailer(config, log).send({ to: 'lee@example.test', subject: '인증번호', text: '123456' });
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
      expect(files).to.have.length(1);
      const parsed = await simpleParser(fs.readFileSync(path.join(dir, files[0])));
      expect(parsed.subject).to.equal('인증번호');
      expect(parsed.text?.trim()).to.equal('123456');
      const summary = lines.find((l) => l.file === path.join(dir, files[0]));
      expect(summary).to.include({ to: 'lee@example.test', subject: '인증번호' });
      expect(String(summary!.msg)).to.contain('lee@example.test').and.contain('인증번호');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cannot be made to add headers through a subject with line breaks', async () => {
    const config = loadConfig({ SMTP_URL: smtp.url });
    await createMailer(config, pino({ level: 'silent' })).send({ to: 'park@example.test', subject: 'Hi\r\nBcc: victim@example.test', text: 'x' });
    const mail = await smtp.waitFor('park@example.test');
    expect(mail.raw.headers.has('bcc')).to.equal(false);
    expect(smtp.mails.some((m) => m.to.includes('victim@example.test'))).to.equal(false);
  });
});

forEachDatabase('verification mail on a machine without SMTP', (db) => {
  let server: RunningServer;
  let dir: string;
  before(async () => {
    dir = tempDir();
    server = await startTestServer({ databaseUrl: db.url(), env: { MAIL_DIR: dir } });
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the code mail to MAIL_DIR, and that code verifies the address', async () => {
    const email = 'fresh-machine@example.test';
    const client = new ApiClient(server.url);
    expect((await client.post(api.verificationSend, { email })).status).to.equal(200);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).to.have.length(1);
    const parsed = await simpleParser(fs.readFileSync(path.join(dir, files[0])));
    expect(parsed.subject).to.equal("[Let's Chat] 이메일 인증번호 안내");
    const code = /\b(\d{6})\b/.exec(parsed.text ?? '')?.[1];
    expect(code).to.match(/^\d{6}$/);
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(200);
  });
});
