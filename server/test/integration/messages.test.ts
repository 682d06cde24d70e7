import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import { type ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';
import { eventually } from '../support/wait';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

forEachDatabase('chat messages over STOMP', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 21, 6, 0, 0);
  const clock = () => now;
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
  });

  const connect = async (cookie: string): Promise<TestStomp> => {
    const stomp = await connectStomp(server, cookie);
    open.push(stomp);
    return stomp;
  };
  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    return { user, client, stomp: await connect(client.cookieHeader()) };
  };
  const roomOf = async (a: Member, ...others: Member[]): Promise<number> => {
    const res = await a.client.post(api.roomCreate, { targetUserId: others[0].user.userId });
    expect(res.status, res.text).to.equal(200);
    const roomId = res.body.chatRoomId as number;
    for (const o of others.slice(1)) {
      expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: o.user.userId })).status).to.equal(200);
    }
    return roomId;
  };
  const history = async (m: Member, roomId: number) =>
    (await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
  const say = (m: Member, roomId: number, content: string, clientMsgId?: string) =>
    m.stomp.send(app.privateMessage, { chatRoomId: roomId, senderId: m.user.userId, content, clientMsgId });
  const refusal = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof StompErrorFrame) return err.frame.headers.message ?? '';
      throw err;
    }
    throw new Error('expected the server to refuse with an ERROR frame');
  };
  const summaryOf = async (m: Member, roomId: number) =>
    (await m.client.get<ChatSummary[]>(api.chats)).body.find((r) => r.chatRoomId === roomId)!;

  it('stores a member\'s message, then delivers it to every subscriber and refreshes every member\'s list', async () => {
    const a = await member('Sender');
    const b = await member('Receiver');
    const roomId = await roomOf(a, b);
    const inboxes = [await a.stomp.subscribe(topics.privateChat(roomId)), await b.stomp.subscribe(topics.privateChat(roomId))];
    const refresh = [await a.stomp.subscribe(topics.toggleRefresh(a.user.userId)), await b.stomp.subscribe(topics.toggleRefresh(b.user.userId))];

    await say(a, roomId, '  안녕하세요  ', 'c-1');

    const stored = (await history(b, roomId)).messages;
    expect(stored).to.have.length(1);
    const expected: ChatMessageEvent = {
      messageId: stored[0].messageId,
      chatRoomId: roomId,
      seq: 1,
      senderId: a.user.userId,
      senderName: 'Sender',
      content: '안녕하세요',
      enrolledAt: new Date(now).toISOString(),
      clientMsgId: 'c-1',
    };
    expect(stored[0]).to.deep.equal(expected);
    for (const inbox of inboxes) expect((await inbox.next()).json()).to.deep.equal(expected);
    for (const inbox of refresh) expect((await inbox.next()).json()).to.equal(true);
    const list = await summaryOf(b, roomId);
    expect(list.lastMessage).to.equal('안녕하세요');
  });

  it('stores a retried clientMsgId once and never delivers it to others as a new message', async () => {
    const a = await member('Retrier');
    const b = await member('Watcher');
    const roomId = await roomOf(a, b);
    const mine = await a.stomp.subscribe(topics.privateChat(roomId));
    const theirs = await b.stomp.subscribe(topics.privateChat(roomId));

    await say(a, roomId, 'once', 'retry-1');
    const first = (await mine.next()).json<ChatMessageEvent>();
    expect((await theirs.next()).json<ChatMessageEvent>().messageId).to.equal(first.messageId);

    // The retry comes over a new connection, as after a reconnect.
    const again = await connect(a.client.cookieHeader());
    await again.send(app.privateMessage, { chatRoomId: roomId, senderId: a.user.userId, content: 'once', clientMsgId: 'retry-1' });
    const echo = (await mine.next()).json<ChatMessageEvent>();
    expect(echo.messageId).to.equal(first.messageId);
    await theirs.nothingSoFar(); // the retry's handler would have published before its RECEIPT
    expect((await history(b, roomId)).messages.map((m) => m.messageId)).to.deep.equal([first.messageId]);
  });

  it('refuses a forged senderId and stores nothing', async () => {
    const a = await member('Honest');
    const b = await member('Victim');
    const roomId = await roomOf(a, b);
    const message = await refusal(a.stomp.send(app.privateMessage, { chatRoomId: roomId, senderId: b.user.userId, content: 'I am B' }));
    expect(message).to.match(/senderId/);
    expect((await history(b, roomId)).messages).to.deep.equal([]);
  });

  it('refuses a non-member\'s message, a blank one and one over 3000 characters', async () => {
    const a = await member('Member');
    const b = await member('Member Two');
    const outsider = await member('Outsider');
    const roomId = await roomOf(a, b);
    expect(await refusal(say(outsider, roomId, 'let me in'))).to.match(/member/);
    expect(await refusal(say(a, roomId, '   '))).to.match(/content/);
    const fresh = { ...a, stomp: await connect(a.client.cookieHeader()) };
    expect(await refusal(say(fresh, roomId, 'x'.repeat(3001)))).to.match(/content/);
    expect((await history(a, roomId)).messages).to.deep.equal([]);
  });

  it('refuses a message with NUL, other controls, a bidi override or a lone surrogate, and keeps newlines and tabs', async () => {
    const a = await member('Sender');
    const b = await member('Receiver');
    const roomId = await roomOf(a, b);
    for (const content of ['a\u0000b', 'a\u001bb', 'a\u0085b', 'invoice\u202Egnp.exe', 'a\uD800b', 'abc\u200F', 'a\u061Cb', 'a\u2028b', '\u200Bhi']) {
      const fresh = { ...a, stomp: await connect(a.client.cookieHeader()) };
      expect(await refusal(say(fresh, roomId, content)), JSON.stringify(content)).to.match(/control or bidi-override/);
    }
    const fresh = { ...a, stomp: await connect(a.client.cookieHeader()) };
    await say(fresh, roomId, 'line one\n\tline two');
    expect((await history(a, roomId)).messages.map((m: { content: string }) => m.content)).to.deep.equal(['line one\n\tline two']);
  });

  it('stores a message of 3000 characters once the whitespace around it is trimmed', async () => {
    const a = await member('Trimmer');
    const b = await member('Reader');
    const roomId = await roomOf(a, b);
    await say(a, roomId, `  ${'x'.repeat(3000)}\n`);
    expect((await history(a, roomId)).messages.map((m: { content: string }) => m.content)).to.deep.equal(['x'.repeat(3000)]);
  });

  it('refuses a non-member\'s subscription to the room\'s topic', async () => {
    const a = await member('Inside');
    const b = await member('Inside Too');
    const outsider = await member('Eavesdropper');
    const roomId = await roomOf(a, b);
    await refusal(outsider.stomp.subscribe(topics.privateChat(roomId)));
    const sub = await a.stomp.subscribe(topics.privateChat(roomId));
    await say(a, roomId, 'still works');
    expect((await sub.next()).json<ChatMessageEvent>().content).to.equal('still works');
  });

  it('stops delivery to a member the moment they leave', async () => {
    const a = await member('Remaining');
    const b = await member('Departing');
    const roomId = await roomOf(a, b);
    const aInbox = await a.stomp.subscribe(topics.privateChat(roomId));
    const bInbox = await b.stomp.subscribe(topics.privateChat(roomId));
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    await say(a, roomId, 'are you there?');

    const leave = (await aInbox.next()).json<ChatMessageEvent>();
    expect(leave).to.deep.include({ senderId: null, content: '"Departing"님이 채팅에서 나갔습니다', leftUserId: b.user.userId });
    expect(leave.systemEvent).to.deep.equal({ type: 'left', actorUserId: b.user.userId, actorName: 'Departing' });
    expect((await aInbox.next()).json<ChatMessageEvent>().content).to.equal('are you there?');
    // The leaver's own subscription gets the leave message (their other tabs close the room on
    // it), and nothing after it.
    expect((await bInbox.next()).json<ChatMessageEvent>()).to.deep.equal(leave);
    await bInbox.nothingSoFar(); // 'are you there?' went to every subscriber at once
    expect(await refusal(say(b, roomId, 'back?'))).to.match(/member/);
  });

  it('tells the leaver\'s other connections that they left, then delivers them nothing more', async () => {
    const a = await member('Staying Host');
    const b = await member('Two Tabs');
    const roomId = await roomOf(a, b);
    const otherTab = await connect(b.client.cookieHeader());
    const aInbox = await a.stomp.subscribe(topics.privateChat(roomId));
    const tabs = [await b.stomp.subscribe(topics.privateChat(roomId)), await otherTab.subscribe(topics.privateChat(roomId))];
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    for (const tab of tabs) {
      expect((await tab.next()).json<ChatMessageEvent>()).to.deep.include({
        senderId: null, content: '"Two Tabs"님이 채팅에서 나갔습니다', leftUserId: b.user.userId,
      });
    }
    await say(a, roomId, 'gone?');
    expect((await aInbox.next()).json<ChatMessageEvent>().leftUserId).to.equal(b.user.userId);
    expect((await aInbox.next()).json<ChatMessageEvent>().content).to.equal('gone?');
    for (const tab of tabs) await tab.nothingSoFar(); // 'gone?' went to every subscriber at once
  });

  it('tells the last member\'s other connections that they left, though the emptied room is deleted', async () => {
    const a = await member('Early Leaver');
    const b = await member('Last Two Tabs');
    const roomId = await roomOf(a, b);
    expect((await a.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    const otherTab = await connect(b.client.cookieHeader());
    const tabs = [await b.stomp.subscribe(topics.privateChat(roomId)), await otherTab.subscribe(topics.privateChat(roomId))];
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    expect(await server.db('rooms').where({ id: roomId }).first()).to.equal(undefined);
    for (const tab of tabs) {
      expect((await tab.next()).json<ChatMessageEvent>()).to.deep.include({
        chatRoomId: roomId, senderId: null, content: '"Last Two Tabs"님이 채팅에서 나갔습니다', leftUserId: b.user.userId,
        systemEvent: { type: 'left', actorUserId: b.user.userId, actorName: 'Last Two Tabs' },
      });
      await tab.nothingSoFar(); // sent by the leave, before its answer
    }
  });

  it('broadcasts rename and invitation system messages to the room', async () => {
    const a = await member('Host');
    const b = await member('Guest');
    const c = await member('Newcomer');
    const roomId = await roomOf(a, b);
    const inbox = await b.stomp.subscribe(topics.privateChat(roomId));
    const cRefresh = await c.stomp.subscribe(topics.toggleRefresh(c.user.userId));
    await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: 'Party' });
    expect((await inbox.next()).json()).to.deep.include({
      senderId: null, senderName: 'Party', content: '"Host"님이 채팅 이름을 "Party" (으)로 변경하였습니다',
      systemEvent: { type: 'renamed', actorUserId: a.user.userId, actorName: 'Host', newName: 'Party' },
    });
    await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId });
    expect((await inbox.next()).json()).to.deep.include({
      senderId: null, senderName: 'Party', content: '"Host" 님이 "Newcomer" 님을 추가했습니다', addedUserEmail: c.user.email,
      systemEvent: { type: 'added', actorUserId: a.user.userId, actorName: 'Host', targetUserId: c.user.userId, targetName: 'Newcomer' },
    });
    expect((await cRefresh.next()).json()).to.equal(true);
  });

  it('delivers 1000 rapid messages from 3 senders in the same order to every receiver', async function () {
    this.timeout(180_000);
    const senders = [await member('Rapid A'), await member('Rapid B'), await member('Rapid C')];
    const roomId = await roomOf(senders[0], senders[1], senders[2]);
    const listener = await connect(senders[0].client.cookieHeader());
    const inboxes: Inbox[] = [];
    for (const s of [...senders.map((m) => m.stomp), listener]) inboxes.push(await s.subscribe(topics.privateChat(roomId)));

    const total = 1000;
    const sends: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const s = senders[i % 3];
      sends.push(say(s, roomId, `${s.user.name} #${i}`, `rapid-${i}`));
    }
    await Promise.all(sends);

    const sequences: number[][] = [];
    for (const inbox of inboxes) {
      const events: ChatMessageEvent[] = [];
      for (let i = 0; i < total; i++) events.push((await inbox.next(60_000)).json<ChatMessageEvent>());
      const ids = events.map((e) => e.messageId);
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1]), 'ascending messageIds').to.equal(true);
      // Each sender's own messages keep the order they were sent in.
      senders.forEach((s, k) => {
        const mine = events.filter((e) => e.senderId === s.user.userId).map((e) => Number(e.content.split('#')[1]));
        expect(mine).to.deep.equal(Array.from({ length: Math.ceil((total - k) / 3) }, (_, j) => k + 3 * j));
      });
      sequences.push(ids);
    }
    for (const seq of sequences.slice(1)) expect(seq).to.deep.equal(sequences[0]);
    expect(new Set(sequences[0]).size).to.equal(total);
  });

  describe('read markers and presence', () => {
    it('keeps an active member\'s room read as messages arrive, and freezes it once inactive', async () => {
      const a = await member('Talker');
      const b = await member('Focused');
      const c = await member('Witness');
      const roomId = await roomOf(a, b, c);
      await b.stomp.send(app.userActive, { chatRoomId: roomId, userId: b.user.userId });
      await c.stomp.send(app.userActive, { chatRoomId: roomId, userId: c.user.userId });

      now += 1000;
      await say(a, roomId, 'seen live');
      const seenAt = new Date(now).toISOString();
      await eventually(async () => expect((await summaryOf(b, roomId)).lastReadAt).to.equal(seenAt));

      await b.stomp.send(app.userInactive, { chatRoomId: roomId, userId: b.user.userId });
      now += 1000;
      await say(a, roomId, 'missed');
      // C is still active: once C's marker moved, the write for this message is done.
      await eventually(async () => expect((await summaryOf(c, roomId)).lastReadAt).to.equal(new Date(now).toISOString()));
      const frozen = await summaryOf(b, roomId);
      expect(frozen.lastReadAt).to.equal(seenAt);
      expect(Date.parse(frozen.lastMessageTime!)).to.be.greaterThan(Date.parse(frozen.lastReadAt!));
    });

    it('stops following a member whose connection closed', async () => {
      const a = await member('Speaker');
      const b = await member('Gone');
      const c = await member('Stays');
      const roomId = await roomOf(a, b, c);
      await b.stomp.send(app.userActive, { chatRoomId: roomId, userId: b.user.userId });
      await c.stomp.send(app.userActive, { chatRoomId: roomId, userId: c.user.userId });
      const before = (await summaryOf(b, roomId)).lastReadAt;
      await b.stomp.disconnect();
      now += 1000;
      await say(a, roomId, 'after you left');
      await eventually(async () => expect((await summaryOf(c, roomId)).lastReadAt).to.equal(new Date(now).toISOString()));
      expect((await summaryOf(b, roomId)).lastReadAt).to.equal(before);
    });

    it('refuses presence for another user or a room the user is not in', async () => {
      const a = await member('Self');
      const b = await member('Someone Else');
      const roomId = await roomOf(a, b);
      expect(await refusal(a.stomp.send(app.userActive, { chatRoomId: roomId, userId: b.user.userId }))).to.match(/userId/);
      const fresh = await connect(a.client.cookieHeader());
      expect(await refusal(fresh.send(app.userInactive, { chatRoomId: roomId, userId: b.user.userId }))).to.match(/userId/);
      const outsider = await member('Not Here');
      expect(await refusal(outsider.stomp.send(app.userActive, { chatRoomId: roomId, userId: outsider.user.userId }))).to.match(/member/);
    });
  });
});
