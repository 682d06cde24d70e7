// The page's STOMP connections stay up while the user does nothing: the server closes a client
// silent for twice the 10 s heart-beat, and Chrome throttles a hidden tab's timers, so the
// client's pings come from a worker (which the page's Content-Security-Policy must allow).
import { expect } from 'chai';
import { api } from '@common/api';
import { app as destinations } from '@common/destinations';
import { connectStomp, openRawStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient } from '../../../server/test/support/users';
import { waitFor, within } from '../../../server/test/support/wait';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

/** The server's silence limit: twice the 10 s heart-beat the browser client promises. */
const SILENCE_LIMIT_MS = 20_000;

describe('the real-time connection in the browser', function () {
  const app = useE2eApp();

  it('keeps its WebSockets open through the heart-beat window, pinging from a worker the page allows', async function () {
    this.timeout(SILENCE_LIMIT_MS + 90_000);
    const user = await createUser(app.server);
    const { page } = await app.openUser();
    const closed: string[] = [];
    const sockets: Array<{ connected: boolean; frames: number }> = [];
    page.on('websocket', (ws) => {
      const socket = { connected: false, frames: 0 };
      sockets.push(socket);
      ws.on('framereceived', ({ payload }) => {
        socket.frames += 1;
        if (String(payload).startsWith('CONNECTED')) socket.connected = true;
      });
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
    await waitFor(() => sockets.length > 0 && sockets.every((s) => s.connected), 'the STOMP connections of /chat-list (CONNECTED)');

    // The silence limit passing, as an event: a client that promises the browser's heart-beat
    // and sends nothing, connected after the page's, is closed once it is past; the page's,
    // older, would be closed by then had their pings not counted.
    const userClient = await loginClient(app.server, user);
    const silent = await openRawStomp(app.server, { cookie: userClient.cookieHeader() });
    silent.send('CONNECT\naccept-version:1.2\nheart-beat:10000,0\n\n\0');
    expect((await silent.nextFrame()).command).to.equal('CONNECTED');
    await within(silent.closed, SILENCE_LIMIT_MS + 30_000, 'the server to close a client silent past its limit');
    // A frame to each of the page's sockets after that (the chat list's refresh for a new message,
    // the call connection's ring): a close of them by the same check would have come before it.
    const framesBefore = sockets.map((s) => s.frames);
    const friend = await createUser(app.server, { name: '연락하는 친구' });
    const friendClient = await loginClient(app.server, friend);
    const roomId = (await friendClient.post<{ chatRoomId: number }>(api.roomCreate, { targetUserId: user.userId })).body.chatRoomId;
    const friendStomp = await connectStomp(app.server, friendClient.cookieHeader());
    try {
      await friendStomp.send(destinations.privateMessage, { chatRoomId: roomId, content: '아직 있어?', clientMsgId: 'e2e-idle' });
      await friendStomp.send(destinations.callInitiate, { targetUserId: user.userId, userId: friend.userId });
      await waitFor(() => sockets.every((s, i) => s.frames > framesBefore[i]), "a frame to each of the page's sockets after the silent client was closed");
      await friendStomp.send(destinations.callHangup, { targetUserId: user.userId });
    } finally {
      await friendStomp.disconnect();
    }

    expect(blocked, 'CSP violations').to.deep.equal([]);
    expect(page.workers().length, 'heart-beat workers').to.be.greaterThan(0);
    expect(closed, 'WebSockets closed while idle').to.deep.equal([]);
  });
});
