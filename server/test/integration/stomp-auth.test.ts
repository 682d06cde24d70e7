// The product server's /websocket: the upgrade checks the real login session and Origin, the
// router's authorisation covers every SUBSCRIBE, and the features' publisher is the broker.
import { expect } from 'chai';
import type { RunningServer } from '../../src/main';
import { forEachDatabase } from '../support/databases';
import { connectStomp, openRawStomp, StompErrorFrame, UpgradeRefused, type RawStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser } from '../support/users';
import { app, queues, topics } from '@common/destinations';

const CONNECT = 'CONNECT\naccept-version:1.2\n\n\0';

async function refusal(promise: Promise<RawStomp>): Promise<number> {
  const err = await promise.then(
    (raw) => {
      raw.socket.close();
      return null;
    },
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(UpgradeRefused);
  return (err as UpgradeRefused).status;
}

forEachDatabase('the product WebSocket endpoint', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await server?.stop();
  });

  it('refuses an upgrade without a session cookie with 401', async () => {
    expect(await refusal(openRawStomp(server, {}))).to.equal(401);
    expect(await refusal(openRawStomp(server, { cookie: 'sid=not-a-session' }))).to.equal(401);
  });

  it('refuses an upgrade from a foreign Origin with 403, and accepts the public origin or none', async () => {
    const { client } = await newLoggedInUser(server);
    const cookie = client.cookieHeader();
    expect(await refusal(openRawStomp(server, { cookie, origin: 'https://evil.example' }))).to.equal(403);
    for (const origin of [server.config.publicOrigin, undefined]) {
      const raw = await openRawStomp(server, { cookie, origin });
      raw.send(CONNECT);
      expect((await raw.nextFrame()).command).to.equal('CONNECTED');
      raw.socket.close();
    }
  });

  it('lets a user subscribe to their own call queues and refresh topic', async () => {
    const { user, client } = await newLoggedInUser(server);
    const stomp = await connectStomp(server, client.cookieHeader(), { origin: server.config.publicOrigin });
    await stomp.subscribe(queues.call('incoming', user.userId));
    await stomp.subscribe(queues.call('ice-candidate', user.userId));
    await stomp.subscribe(topics.toggleRefresh(user.userId));
    await stomp.disconnect();
  });

  for (const [what, destination] of [
    ['call queue', (uid: number) => queues.call('offer', uid)],
    ['refresh topic', (uid: number) => topics.toggleRefresh(uid)],
  ] as const) {
    it(`refuses a SUBSCRIBE to another user’s ${what} with ERROR`, async () => {
      const { client } = await newLoggedInUser(server);
      const { user: other } = await newLoggedInUser(server);
      const stomp = await connectStomp(server, client.cookieHeader());
      const err = await stomp.subscribe(destination(other.userId)).then(() => null, (e: unknown) => e);
      expect(err).to.be.instanceOf(StompErrorFrame);
      expect((err as StompErrorFrame).frame.headers.message).to.match(/not allowed/);
      await stomp.closed;
    });
  }

  it('refuses a room topic to a non-member and an unknown destination', async () => {
    const { client } = await newLoggedInUser(server);
    for (const destination of [topics.privateChat(999999), '/topic/everything']) {
      const stomp = await connectStomp(server, client.cookieHeader());
      const err = await stomp.subscribe(destination).then(() => null, (e: unknown) => e);
      expect(err, destination).to.be.instanceOf(StompErrorFrame);
      await stomp.closed;
    }
  });

  it('refuses a client SEND to a topic', async () => {
    const { user, client } = await newLoggedInUser(server);
    const stomp = await connectStomp(server, client.cookieHeader());
    const err = await stomp.send(topics.toggleRefresh(user.userId), 'true').then(() => null, (e: unknown) => e);
    expect(err).to.be.instanceOf(StompErrorFrame);
    await stomp.closed;
  });

  it('delivers what the features publish: a new room refreshes its creator’s list, its first message both lists, and members may subscribe to it', async () => {
    const a = await newLoggedInUser(server, { name: 'Alice' });
    const b = await newLoggedInUser(server, { name: 'Bob' });
    const sa = await connectStomp(server, a.client.cookieHeader());
    const sb = await connectStomp(server, b.client.cookieHeader());
    const ra = await sa.subscribe(topics.toggleRefresh(a.user.userId));
    const rb = await sb.subscribe(topics.toggleRefresh(b.user.userId));
    const res = await a.client.post('/api/chat-room/create', { targetUserId: b.user.userId, targetUserName: 'Bob' });
    expect(res.status).to.equal(200);
    expect((await ra.next()).body).to.equal('true');
    // The other member hears of the room with its first message, not its creation.
    await rb.nothingSoFar(); // a refresh would have been sent before the creation's answer
    await sa.send(app.privateMessage, { chatRoomId: res.body.chatRoomId, content: 'hi' });
    expect((await rb.next()).body).to.equal('true');
    expect((await ra.next()).body).to.equal('true');
    await sb.subscribe(topics.privateChat(res.body.chatRoomId));
    await Promise.all([sa.disconnect(), sb.disconnect()]);
  });

  it('closes its WebSockets when the server stops', async () => {
    const own = await startTestServer({ databaseUrl: db.url() });
    const { client } = await newLoggedInUser(own);
    const stomp = await connectStomp(own, client.cookieHeader());
    await own.stop();
    expect(await stomp.closed).to.be.a('number');
  });
});
