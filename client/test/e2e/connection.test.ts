// The page's STOMP connections stay up while the user does nothing: the server closes a client
// silent for twice the 10 s heart-beat, and Chrome throttles a hidden tab's timers, so the
// client's pings come from a worker (which the page's Content-Security-Policy must allow).
import { expect } from 'chai';
import { createUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

/** Longer than the server's silence limit (2 × 10 s heart-beat). */
const IDLE_MS = 25_000;

describe('the real-time connection in the browser', function () {
  const app = useE2eApp();

  it('keeps its WebSockets open through the heart-beat window, pinging from a worker the page allows', async function () {
    this.timeout(IDLE_MS + 60_000);
    const user = await createUser(app.server);
    const { page } = await app.openUser();
    const closed: string[] = [];
    let opened = 0;
    page.on('websocket', (ws) => {
      opened += 1;
      ws.on('close', () => closed.push(ws.url()));
    });
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
    });
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', { timeout: 30_000 });
    for (let waited = 0; opened === 0 && waited < 10_000; waited += 100) await page.waitForTimeout(100);
    expect(opened, 'WebSockets opened by /chat-list').to.be.greaterThan(0);

    await page.waitForTimeout(IDLE_MS);

    expect(blocked, 'CSP violations').to.deep.equal([]);
    expect(page.workers().length, 'heart-beat workers').to.be.greaterThan(0);
    expect(closed, 'WebSockets closed while idle').to.deep.equal([]);
  });
});
