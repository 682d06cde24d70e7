import { expect } from 'chai';
import { api } from '@common/api';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { SmtpReceiver } from '../support/smtp';
import { startTestServer } from '../support/test-server';
import { createUser } from '../support/users';

const MINUTE = 60 * 1000;
let counter = 0;
const freshAddress = () => `signup-${process.pid}-${++counter}-${Date.now()}@example.test`;

forEachDatabase('e-mail verification and sign-up', (db) => {
  let server: RunningServer;
  let smtp: SmtpReceiver;
  let now = Date.UTC(2026, 10, 21, 6, 0, 0);
  let client: ApiClient;

  before(async () => {
    smtp = await new SmtpReceiver().start();
    server = await startTestServer({ databaseUrl: db.url(), smtpUrl: smtp.url, clock: () => now });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });
  beforeEach(() => {
    client = new ApiClient(server.url);
    smtp.failWith = null;
    // Every test's requests come from 127.0.0.1: each starts after the per-client window.
    now += 10 * MINUTE;
  });

  /** Asks for a code and returns it as read from the received mail. */
  async function sendAndReadCode(email: string): Promise<string> {
    const since = smtp.mails.length;
    const res = await client.post(api.verificationSend, { email });
    expect(res.status, res.text).to.equal(200);
    return smtp.codeFor(email, since);
  }

  it('mails a six-digit code with a Korean subject and its five-minute validity', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    expect(code).to.match(/^\d{6}$/);
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).to.equal("[Let's Chat] 이메일 인증번호 안내");
    expect(mail.text).to.contain(code).and.contain('5분 동안 유효합니다');
    expect(mail.from).to.contain('no-reply@localhost');
  });

  it('stores the code only as a salted digest', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    const row = await server.db('email_verifications').where({ email }).first();
    expect(row.code_hash).to.match(/^[0-9a-f]{64}$/);
    expect(Object.values(row).map(String)).not.to.include(code);
  });

  it('refuses an invalid address with 400 and sends nothing', async () => {
    const before = smtp.mails.length;
    for (const email of ['not-an-address', 'a b@example.test', 'x@y', `${'a'.repeat(95)}@example.test`, 'evil@example.test\r\nBcc: victim@example.test']) {
      const res = await client.post(api.verificationSend, { email });
      expect(res.status, email).to.equal(400);
      expect(res.body).to.have.keys('error', 'message');
    }
    expect((await client.post(api.verificationSend, {})).status).to.equal(400);
    expect(smtp.mails.length).to.equal(before);
  });

  it('answers 401 when the address already has an account', async () => {
    const user = await createUser(server);
    const res = await client.post(api.verificationSend, { email: user.email.toUpperCase() });
    expect(res.status).to.equal(401);
    expect(res.body.error).to.equal('email_taken');
  });

  it('refuses a fourth code within five minutes with 429 and Retry-After, and allows one once the window has passed', async () => {
    const email = freshAddress();
    await sendAndReadCode(email);
    now += MINUTE;
    await sendAndReadCode(email);
    now += MINUTE;
    await sendAndReadCode(email);
    const refused = await client.post(api.verificationSend, { email });
    expect(refused.status).to.equal(429);
    // The first code was asked for two minutes ago: the window frees up in three.
    expect(refused.headers.get('retry-after')).to.equal('180');
    now += 3 * MINUTE;
    expect((await client.post(api.verificationSend, { email })).status).to.equal(200);
  });

  it('sends codes to at most five addresses per client in five minutes, then 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) await sendAndReadCode(freshAddress());
    const sentBefore = smtp.mails.length;
    const refused = await client.post(api.verificationSend, { email: freshAddress() });
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 300);
    expect(smtp.mails.length, 'no mail sent for the refused request').to.equal(sentBefore);
    now += 5 * MINUTE;
    await sendAndReadCode(freshAddress());
  });

  it('verifies the right code (as a number or a string) and refuses a wrong one with 400', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await client.post(api.verificationVerify, { email, code: wrong });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal('wrong_code');
    expect((await client.post(api.verificationVerify, { email, code: Number(code) })).status).to.equal(200);
    // Used up: the same code does not verify twice.
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(400);
  });

  it('refuses a code after its five minutes with 400', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    now += 5 * MINUTE;
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(400);
  });

  it('kills the code after five wrong tries, even for the right code, until a new one is sent', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await client.post(api.verificationVerify, { email, code: wrong })).status).to.equal(400);
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(400);
    const fresh = await sendAndReadCode(email);
    expect((await client.post(api.verificationVerify, { email, code: fresh })).status).to.equal(200);
  });

  it('replaces an earlier code with a newer one', async () => {
    const email = freshAddress();
    const first = await sendAndReadCode(email);
    let second = await sendAndReadCode(email);
    // One chance in a million that both are equal; ask again so the assertion means something.
    if (second === first) second = await sendAndReadCode(email);
    expect((await client.post(api.verificationVerify, { email, code: first })).status).to.equal(400);
    expect((await client.post(api.verificationVerify, { email, code: second })).status).to.equal(200);
  });

  it('answers 502 when the mail cannot be sent, and the failure does not use up the resend limit', async () => {
    const email = freshAddress();
    smtp.failWith = 'mailbox unavailable';
    for (let i = 0; i < 3; i++) expect((await client.post(api.verificationSend, { email })).status).to.equal(502);
    smtp.failWith = null;
    await sendAndReadCode(email);
  });

  it('signs up a verified address, answers {name}, and the new user can log in', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(200);
    const res = await client.post(api.signUp, { email, name: '홍길동', password: 'pa55word' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ name: '홍길동' });
    const login = await new ApiClient(server.url).post(api.login, { email, password: 'pa55word' });
    expect(login.status).to.equal(200);
    expect(login.body.name).to.equal('홍길동');
  });

  it('refuses sign-up for an address that was never verified', async () => {
    const email = freshAddress();
    await sendAndReadCode(email);
    const res = await client.post(api.signUp, { email, name: 'Mallory', password: 'x' });
    expect(res.status).to.equal(403);
    expect((await new ApiClient(server.url).post(api.login, { email, password: 'x' })).status).to.equal(401);
  });

  it('refuses sign-up 30 minutes after verification', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(200);
    now += 30 * MINUTE;
    expect((await client.post(api.signUp, { email, name: 'Late', password: 'x' })).status).to.equal(403);
  });

  it('refuses an invalid name or an empty password with 400, and a second sign-up of the same address with 4xx', async () => {
    const email = freshAddress();
    const code = await sendAndReadCode(email);
    expect((await client.post(api.verificationVerify, { email, code })).status).to.equal(200);
    expect((await client.post(api.signUp, { email, name: 'R2D2', password: 'x' })).status).to.equal(400);
    expect((await client.post(api.signUp, { email, name: '', password: 'x' })).status).to.equal(400);
    expect((await client.post(api.signUp, { email, name: 'a'.repeat(101), password: 'x' })).status).to.equal(400);
    expect((await client.post(api.signUp, { email, name: 'Valid', password: '' })).status).to.equal(400);
    expect((await client.post(api.signUp, { email, name: 'Valid', password: 'x' })).status).to.equal(200);
    const again = await client.post(api.signUp, { email, name: 'Valid', password: 'x' });
    expect(again.status).to.be.within(400, 499);
  });
});
