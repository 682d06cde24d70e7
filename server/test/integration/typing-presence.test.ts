import { expect } from 'chai';
import { api, type ChatHistoryResponse, type Preferences, type UserSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeRoomEvent } from '@common/events';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient }

forEachDatabase('typing and presence on the room-events topic', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 25, 9, 30, 0);
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock: () => now });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
  });

  const member = (name: string): Promise<Member> => newLoggedInUser(server, { name });
  const connect = async (m: Member): Promise<TestStomp> => {
    const stomp = await connectStomp(server, m.client.cookieHeader());
    open.push(stomp);
    return stomp;
  };
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const next = async (inbox: Inbox, roomId: number) => decodeRoomEvent((await inbox.next()).json(), roomId);
  /**
   * The next event but the observer's own presence: the observer's connection is told to the
   * room after a lookup, which can finish after the observer subscribed (it did under CI load).
   */
  const nextBut = async (inbox: Inbox, roomId: number, observerId: number) => {
    let event = await next(inbox, roomId);
    while (event?.type === 'presence' && event.userId === observerId) event = await next(inbox, roomId);
    return event;
  };
  /**
   * The next event that `skip` does not pass over, or null if none comes within `withinMs`: who
   * is online is told to the room after a lookup that can finish at any point of a test.
   */
  const nextUnless = async (inbox: Inbox, roomId: number, skip: (event: ReturnType<typeof decodeRoomEvent>) => boolean, withinMs = 10_000) => {
    const until = Date.now() + withinMs;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return null;
      const message = await inbox.next(left).catch(() => null);
      if (message === null) return null;
      const event = decodeRoomEvent(message.json(), roomId);
      if (!skip(event)) return event;
    }
  };
  /** The next event that is not presence (a test about typing), or null within `withinMs`. */
  const nextNotPresence = (inbox: Inbox, roomId: number, withinMs?: number) => nextUnless(inbox, roomId, (e) => e?.type === 'presence', withinMs);
  /** The next event but the observer's own presence, or null within `withinMs`. */
  const nextButOwnWithin = (inbox: Inbox, roomId: number, observerId: number, withinMs: number) =>
    nextUnless(inbox, roomId, (e) => e?.type === 'presence' && e.userId === observerId, withinMs);
  const refusal = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof StompErrorFrame) return err.frame.headers.message ?? '';
      throw err;
    }
    throw new Error('expected the server to refuse with an ERROR frame');
  };

  it('tells the room a member is typing at most once every 2 s, stores nothing, and refuses a non-member', async () => {
    const a = await member('Typist');
    const b = await member('Watcher');
    const roomId = await roomOf(a, b);
    const aStomp = await connect(a);
    const events = await (await connect(b)).subscribe(topics.chatRoomEvents(roomId));

    await aStomp.send(app.typing, { chatRoomId: roomId });
    await aStomp.send(app.typing, { chatRoomId: roomId });
    expect(await nextNotPresence(events, roomId)).to.deep.equal({ type: 'typing', chatRoomId: roomId, userId: a.user.userId, name: 'Typist' });
    expect(await nextNotPresence(events, roomId, 300)).to.equal(null);
    now += 2000;
    await aStomp.send(app.typing, { chatRoomId: roomId });
    expect(await nextNotPresence(events, roomId)).to.deep.include({ type: 'typing', userId: a.user.userId });
    expect(await server.db('messages').where({ room_id: roomId })).to.deep.equal([]);

    const outsider = await member('Outsider');
    expect(await refusal((await connect(outsider)).send(app.typing, { chatRoomId: roomId }))).to.match(/member/);
  });

  it('stops telling a member\'s typing once they turn it off in their preferences', async () => {
    const a = await member('Private Typist');
    const b = await member('Curious');
    const roomId = await roomOf(a, b);
    expect((await a.client.get<Preferences>(api.preferences)).body).to.deep.equal({ sendTyping: true });
    const off = await a.client.patch<Preferences>(api.preferences, { sendTyping: false });
    expect(off.status).to.equal(200);
    expect(off.body).to.deep.equal({ sendTyping: false });
    expect((await a.client.patch(api.preferences, { sendTyping: 'no' })).status).to.equal(400);
    expect((await a.client.get<Preferences>(api.preferences)).body).to.deep.equal({ sendTyping: false });

    const events = await (await connect(b)).subscribe(topics.chatRoomEvents(roomId));
    now += 5000;
    const aStomp = await connect(a);
    expect(await nextBut(events, roomId, b.user.userId)).to.deep.equal({ type: 'presence', userId: a.user.userId, online: true });
    await aStomp.send(app.typing, { chatRoomId: roomId });
    expect(await nextNotPresence(events, roomId, 300)).to.equal(null);
  });

  it('shows a user online while any of their two connections is open, and tells the room only on change', async () => {
    const a = await member('Two Tabs');
    const b = await member('Observer');
    const roomId = await roomOf(a, b);
    const events = await (await connect(b)).subscribe(topics.chatRoomEvents(roomId));
    const onlineOf = async (userId: number) =>
      (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body.users.find((u) => u.userId === userId)!.online;
    expect(await onlineOf(a.user.userId)).to.equal(false);
    expect(await onlineOf(b.user.userId)).to.equal(true);

    const first = await connect(a);
    expect(await nextBut(events, roomId, b.user.userId)).to.deep.equal({ type: 'presence', userId: a.user.userId, online: true });
    const second = await connect(a);
    expect(await nextButOwnWithin(events, roomId, b.user.userId, 300)).to.equal(null);
    expect(await onlineOf(a.user.userId)).to.equal(true);
    const found = await b.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent('Two Tabs')}`);
    expect(found.body.map((u) => u.online)).to.deep.equal([true]);

    await first.disconnect();
    expect(await nextButOwnWithin(events, roomId, b.user.userId, 300)).to.equal(null);
    expect(await onlineOf(a.user.userId)).to.equal(true);
    await second.disconnect();
    expect(await nextBut(events, roomId, b.user.userId)).to.deep.equal({ type: 'presence', userId: a.user.userId, online: false });
    expect(await onlineOf(a.user.userId)).to.equal(false);
  });
});
