// The conversation in Chromium: the '새 메시지 ↓' pill, and sends that fail while the server is
// down: failed after 10 s with 재전송 and 삭제, kept across a reload, and sent once, in order,
// when the server is back. This suite stops and restarts its own server behind a TCP proxy on a
// fixed port: stopping drops every connection the browser holds (keep-alive ones included), as a
// real restart does, and the address (so the page's storage) stays the same.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, type ChatHistoryResponse } from '@common/api';
import type { RunningServer } from '../../../server/src/main';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { launchChromium, requireChromium } from './support/browser';

const WAIT = { timeout: 45_000 };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Forwards a port to the running server; `drop` closes every open connection. */
class Proxy {
  private readonly sockets = new Set<net.Socket>();
  private readonly listener: net.Server;
  target = 0;

  constructor() {
    this.listener = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }
  listen(port: number): Promise<void> {
    return new Promise((resolve) => this.listener.listen(port, '127.0.0.1', resolve));
  }
  drop(): void {
    for (const s of this.sockets) s.destroy();
  }
  close(): Promise<void> {
    this.drop();
    return new Promise((resolve) => this.listener.close(() => resolve()));
  }
}

describe('the conversation in the browser', function () {
  let dbDir = '';
  let port = 0;
  let server: RunningServer | null = null;
  let browser: Browser;
  const proxy = new Proxy();
  const contexts: BrowserContext[] = [];

  const baseUrl = () => `http://localhost:${port}`;
  const startServer = async () => {
    server = await startTestServer({ databaseUrl: `sqlite:${path.join(dbDir, 'e2e.sqlite3')}`, env: { PUBLIC_URL: baseUrl() } });
    proxy.target = server.port;
    return server;
  };
  const stopServer = async () => {
    await server?.stop();
    server = null;
    proxy.drop();
  };

  before(async function () {
    requireChromium(this);
    dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-e2e-conv-'));
    port = await freePort();
    await proxy.listen(port);
    await startServer();
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => {})));
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    await proxy.close();
    if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  });

  async function signedIn(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseUrl(), locale: 'ko-KR', viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`  [page error] ${error.message}`));
    await page.goto('/login');
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return page;
  }

  async function roomOf(owner: TestUser, other: TestUser): Promise<number> {
    const client = await loginClient(server!, owner);
    const res = await client.post(api.roomCreate, { targetUserId: other.userId, targetUserName: other.name });
    return (res.body as { chatRoomId: number }).chatRoomId;
  }

  async function send(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill(text);
    await box.press('Enter');
  }

  it('raises 새 메시지 ↓ for a message that arrives while the reader is scrolled up, and scrolls down when tapped', async () => {
    const a = await createUser(server!, { name: '읽는이' });
    const b = await createUser(server!, { name: '쓰는이' });
    const chatRoomId = await roomOf(a, b);
    const A = await signedIn(a);
    const B = await signedIn(b);
    for (const page of [A, B]) {
      await page.goto(`/chat-room?cri=${chatRoomId}`);
      await page.getByTestId('messages').waitFor(WAIT);
    }
    // A tall message (Shift+Enter lines) makes the conversation scroll.
    const tall = Array.from({ length: 40 }, (_, i) => `줄 ${i + 1}`).join('\n');
    await send(B, tall);
    await A.getByTestId('their-message').first().waitFor(WAIT);
    await A.getByTestId('messages').evaluate((el) => (el.scrollTop = 0));
    await send(B, '아래에 새로 온 메시지');
    const pill = A.getByTestId('new-messages-pill');
    await pill.waitFor(WAIT);
    expect(await pill.innerText()).to.equal(ko.room.newMessages);
    await pill.click();
    await pill.waitFor({ state: 'detached', ...WAIT });
    const atBottom = await A.getByTestId('messages').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 80);
    expect(atBottom).to.equal(true);
  });

  it('marks sends failed while the server is down, keeps them over a reload, and sends them once, in order, when it is back', async () => {
    const a = await createUser(server!, { name: '보내는이' });
    const b = await createUser(server!, { name: '받는이' });
    const chatRoomId = await roomOf(a, b);
    const A = await signedIn(a);
    await A.goto(`/chat-room?cri=${chatRoomId}`);
    await A.getByTestId('messages').waitFor(WAIT);
    await send(A, '서버가 켜져 있을 때');
    await A.getByTestId('my-message').filter({ hasNotText: ko.room.sending }).first().waitFor(WAIT);

    await stopServer();
    await A.getByRole('status').filter({ hasText: ko.room.reconnecting }).waitFor(WAIT);
    await send(A, '첫째 실패');
    await send(A, '둘째 실패');
    await send(A, '셋째 삭제할 것');
    const failed = A.getByTestId('my-message').filter({ hasText: ko.room.failed });
    await A.waitForFunction(() => document.querySelectorAll('.msg--failed').length === 3, null, WAIT);
    expect(await failed.count()).to.equal(3);

    // 삭제 drops one; a reload keeps the others (served again once the server is back).
    await A.getByRole('button', { name: ko.room.deleteLabel('셋째 삭제할 것') }).click();
    await A.waitForFunction(() => document.querySelectorAll('.msg--failed').length === 2, null, WAIT);

    // Block the WebSocket over the restart and the reload, so the failed messages show before they go out.
    let allowSocket = false;
    await A.routeWebSocket(/\/websocket$/, (ws) => {
      if (allowSocket) ws.connectToServer();
      else void ws.close();
    });
    await startServer();
    await A.reload();
    await A.getByTestId('messages').waitFor(WAIT);
    await A.waitForFunction(() => document.querySelectorAll('.msg--failed').length === 2, null, WAIT);
    expect(await A.getByTestId('my-message').filter({ hasText: '셋째 삭제할 것' }).count()).to.equal(0);

    allowSocket = true;
    await A.waitForFunction(() => document.querySelectorAll('.msg--failed, .msg--pending').length === 0, null, WAIT);

    const reader = await loginClient(server!, b);
    const history = (await reader.get(`${api.chatHistory}?chatRoomId=${chatRoomId}&page=0`)).body as ChatHistoryResponse;
    const texts = history.messages.filter((m) => m.senderId === a.userId).map((m) => m.content);
    expect(texts).to.deep.equal(['서버가 켜져 있을 때', '첫째 실패', '둘째 실패']);
  });
});
