// Blocking, the corners (docs/protocol.md, blocks) over raw REST and STOMP on both databases:
// nothing a blocked person does reaches the one who blocked them. Their message moves nothing in
// the blocker's chat list (order, preview, time, lastSeq, refresh signal); a mention of theirs
// from before the block no longer marks the row; their typing, presence, deletions and reactions
// do not reach the blocker, live or in history; nor does their text in another member's reply
// (the quote reads 차단한 사용자의 메시지입니다.) or as the room's notice; their e-mail notification does not mail the
// blocker (and counts them as mailed). The blocked person's side is unchanged.
import { expect } from 'chai';
import { api, type BlockedUser, type ChatHistoryResponse, type ChatMessage, type ChatSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import { BLOCKED_QUOTE_TEXT } from '@common/system-text';
import type { RoomEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { SmtpReceiver } from '../support/smtp';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }
type Inbox = Awaited<ReturnType<TestStomp['subscribe']>>;

forEachDatabase('blocking someone: what still reached the blocker', (db) => {
  let server: RunningServer;
  let smtp: SmtpReceiver;
  const open: TestStomp[] = [];

  before(async () => {
    smtp = await new SmtpReceiver().start();
    server = await startTestServer({ databaseUrl: db.url(), smtpUrl: smtp.url });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  const connect = async (m: Pick<Member, 'client'>): Promise<TestStomp> => {
    const stomp = await connectStomp(server, m.client.cookieHeader());
    open.push(stomp);
    return stomp;
  };
  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    return { user, client, stomp: await connect({ client }) };
  };
  const block = (m: Member, other: Member) => m.client.request<BlockedUser[]>('PUT', api.block(other.user.userId), { json: {} });
  /** A room of the first with the others (a 1:1, then the rest added). */
  const roomOf = async (a: Member, ...others: Member[]): Promise<number> => {
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: others[0].user.userId })).body.chatRoomId as number;
    for (const o of others.slice(1)) expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: o.user.userId })).status).to.equal(200);
    return roomId;
  };
  const list = async (m: Member): Promise<ChatSummary[]> => (await m.client.get<ChatSummary[]>(api.chats)).body;
  const rowOf = async (m: Member, roomId: number): Promise<ChatSummary> => (await list(m)).find((r) => r.chatRoomId === roomId)!;
  const history = async (m: Member, roomId: number): Promise<ChatHistoryResponse> =>
    (await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
  /** Sends a message; answers it as the sender's own subscription of the room topic got it. */
  const say = async (m: Member, roomId: number, content: string, mentions?: number[]): Promise<ChatMessage> => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content, ...(mentions ? { mentions } : {}) });
    const message = decodeChatMessage((await inbox.next()).json(), roomId)!;
    inbox.unsubscribe();
    return message;
  };
  /** The next room event of this type, skipping others (reads, the room's own news). */
  const nextOf = async <T extends RoomEvent['type']>(inbox: Inbox, type: T): Promise<Extract<RoomEvent, { type: T }>> => {
    for (;;) {
      const event = (await inbox.next()).json<RoomEvent>();
      if (event.type === type) return event as Extract<RoomEvent, { type: T }>;
    }
  };

  it('moves nothing in the blocker\'s chat list for a blocked person\'s message: order, preview, time and lastSeq', async () => {
    const blocker = await member('Lister');
    const pest = await member('Bumper');
    const third = await member('Third');
    const friend = await member('Friend');
    const group = await roomOf(blocker, pest, third);
    const other = await roomOf(blocker, friend);
    const seen = await say(third, group, 'third speaks');
    await say(friend, other, 'friend speaks');
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.deep.equal([other, group]);
    expect((await block(blocker, pest)).status).to.equal(200);

    await say(pest, group, 'pest speaks');
    // The group stays below: its row is as it was before the pest spoke.
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.deep.equal([other, group]);
    expect(await rowOf(blocker, group)).to.deep.include({ lastMessage: 'third speaks', lastMessageTime: seen.enrolledAt, lastSeq: seen.seq });
    // For the others the room moved up with it.
    expect((await list(third)).map((r) => r.chatRoomId)[0]).to.equal(group);
    expect(await rowOf(third, group)).to.deep.include({ lastMessage: 'pest speaks', lastSeq: seen.seq! + 1 });
    // A message the blocker can see moves it again.
    await say(third, group, 'third again');
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.deep.equal([group, other]);
  });

  it('sends the blocker no chat-list refresh signal for a blocked person\'s message', async () => {
    const blocker = await member('Unsignalled');
    const pest = await member('Signaller');
    // Opened by the pest before the block: only its opener was signalled, and it stays listed.
    const dm = await roomOf(pest, blocker);
    expect((await block(blocker, pest)).status).to.equal(200);
    const signals = await blocker.stomp.subscribe(topics.toggleRefresh(blocker.user.userId));
    const pestSignals = await pest.stomp.subscribe(topics.toggleRefresh(pest.user.userId));
    await say(pest, dm, 'anyone?');
    await pestSignals.next();
    await signals.nothingSoFar();
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.include(dm);
  });

  it('drops the mention mark of a mention made before the block, and keeps others\'', async () => {
    const blocker = await member('Mentioned');
    const pest = await member('Mentioner');
    const third = await member('Caller-out');
    const group = await roomOf(blocker, pest, third);
    await say(pest, group, '@Mentioned look', [blocker.user.userId]);
    expect(await rowOf(blocker, group)).to.deep.include({ mentioned: true });

    expect((await block(blocker, pest)).status).to.equal(200);
    expect(await rowOf(blocker, group)).to.not.have.property('mentioned');
    await say(third, group, '@Mentioned and me', [blocker.user.userId]);
    expect(await rowOf(blocker, group)).to.deep.include({ mentioned: true });
    // Unblocked, the pest's mention marks the row again until read.
    expect((await blocker.client.delete(api.block(pest.user.userId))).status).to.equal(200);
    await history(blocker, group);
    expect(await rowOf(blocker, group)).to.not.have.property('mentioned');
  });

  it('keeps a blocked person\'s typing, presence and deletions from the blocker while the others get them', async () => {
    const blocker = await member('Watcher');
    const pest = await member('Typist');
    const third = await member('Witness');
    const quinn = await member('Quinn');
    const group = await roomOf(blocker, pest, third, quinn);
    expect((await block(blocker, pest)).status).to.equal(200);
    const mine = await blocker.stomp.subscribe(topics.chatRoomEvents(group));
    const theirs = await third.stomp.subscribe(topics.chatRoomEvents(group));

    // Typing: the witness hears the pest; the first the blocker hears is Quinn.
    await pest.stomp.send(app.typing, { chatRoomId: group });
    expect((await nextOf(theirs, 'typing')).userId).to.equal(pest.user.userId);
    await quinn.stomp.send(app.typing, { chatRoomId: group });
    expect((await nextOf(mine, 'typing')).userId).to.equal(quinn.user.userId);

    // Presence: the pest going and coming back reaches the witness only.
    await pest.stomp.disconnect();
    expect(await nextOf(theirs, 'presence')).to.deep.equal({ type: 'presence', userId: pest.user.userId, online: false });
    pest.stomp = await connect(pest);
    expect(await nextOf(theirs, 'presence')).to.deep.equal({ type: 'presence', userId: pest.user.userId, online: true });
    await quinn.stomp.disconnect();
    expect(await nextOf(mine, 'presence')).to.deep.equal({ type: 'presence', userId: quinn.user.userId, online: false });
    // Nor does history show the pest online to the blocker (it does to the witness).
    const online = async (m: Member) => (await history(m, group)).users.find((u) => u.userId === pest.user.userId)?.online;
    expect([await online(blocker), await online(third)]).to.deep.equal([false, true]);

    // Deleting a hidden message tells the witness, not the blocker.
    const hidden = await say(pest, group, 'oops');
    await pest.stomp.send(app.deleteMessage, { chatRoomId: group, messageId: hidden.messageId });
    expect((await nextOf(theirs, 'deleted')).messageId).to.equal(hidden.messageId);
    const shown = await say(third, group, 'oops too');
    await third.stomp.send(app.deleteMessage, { chatRoomId: group, messageId: shown.messageId });
    expect((await nextOf(mine, 'deleted')).messageId).to.equal(shown.messageId);
  });

  it('leaves a blocked person\'s reactions out of the blocker\'s history, and others\' reactions to their messages out of the blocker\'s events', async () => {
    const blocker = await member('Poster');
    const pest = await member('Reactor');
    const third = await member('Fan');
    const group = await roomOf(blocker, pest, third);
    const mine = await say(blocker, group, 'my news');
    const other = await say(blocker, group, 'more news');
    await pest.stomp.send(app.reaction, { chatRoomId: group, messageId: mine.messageId, emoji: '👍', on: true });
    await pest.stomp.send(app.reaction, { chatRoomId: group, messageId: other.messageId, emoji: '😂', on: true });
    await third.stomp.send(app.reaction, { chatRoomId: group, messageId: mine.messageId, emoji: '👍', on: true });
    expect((await block(blocker, pest)).status).to.equal(200);

    // Live: a reaction of a third member's to the pest's (hidden) message is not told to the
    // blocker; the first the blocker hears is one on their own message.
    const hidden = await say(pest, group, 'hidden news');
    const events = await blocker.stomp.subscribe(topics.chatRoomEvents(group));
    const thirdEvents = await third.stomp.subscribe(topics.chatRoomEvents(group));
    await third.stomp.send(app.reaction, { chatRoomId: group, messageId: hidden.messageId, emoji: '😮', on: true });
    expect((await nextOf(thirdEvents, 'reaction')).messageId).to.equal(hidden.messageId);
    await third.stomp.send(app.reaction, { chatRoomId: group, messageId: other.messageId, emoji: '🙏', on: true });
    expect((await nextOf(events, 'reaction')).messageId).to.equal(other.messageId);
    await third.stomp.send(app.reaction, { chatRoomId: group, messageId: other.messageId, emoji: '🙏', on: false });

    const reactions = async (m: Member) => Object.fromEntries((await history(m, group)).messages.map((x) => [x.content, x.reactions ?? null]));
    expect(await reactions(blocker)).to.deep.include({ 'my news': [{ emoji: '👍', userIds: [third.user.userId] }], 'more news': null });
    expect(await reactions(third)).to.deep.include({
      'my news': [{ emoji: '👍', userIds: [pest.user.userId, third.user.userId] }],
      'more news': [{ emoji: '😂', userIds: [pest.user.userId] }],
    });
  });

  it('mails a blocked person\'s room notification to the others, not to the blocker, and answers as if it had', async () => {
    const blocker = await member('Unmailed');
    const pest = await member('Notifier');
    const third = await member('Mailed');
    const group = await roomOf(blocker, pest, third);
    expect((await block(blocker, pest)).status).to.equal(200);
    const since = smtp.mails.length;
    const res = await pest.client.post(api.notificationSend, { chatRoomId: group });
    expect([res.status, res.body]).to.deep.equal([200, { sent: 2 }]);
    await smtp.waitFor(third.user.email, 10_000, since);
    // Every mail was accepted before the answer came.
    expect(smtp.mails.slice(since).flatMap((m) => m.to)).to.deep.equal([third.user.email]);
  });

  it('shows the blocker a reply to a blocked person\'s message without its text, live and in history; the others with it', async () => {
    const blocker = await member('Reader');
    const pest = await member('Quoted');
    const third = await member('Replier');
    const group = await roomOf(blocker, pest, third);
    const original = await say(pest, group, 'the secret words');
    expect((await block(blocker, pest)).status).to.equal(200);
    const mine = await blocker.stomp.subscribe(topics.privateChat(group));
    const theirs = await pest.stomp.subscribe(topics.privateChat(group));
    await third.stomp.send(app.privateMessage, { chatRoomId: group, content: 'about that', replyToMessageId: original.messageId });
    const hidden = { messageId: original.messageId, senderName: 'Quoted', content: BLOCKED_QUOTE_TEXT, blocked: true };
    const quoted = { messageId: original.messageId, senderName: 'Quoted', content: 'the secret words' };
    expect(decodeChatMessage((await mine.next()).json(), group)?.replyTo).to.deep.equal(hidden);
    expect(decodeChatMessage((await theirs.next()).json(), group)?.replyTo).to.deep.equal(quoted);
    const reply = async (m: Member) => (await history(m, group)).messages.find((x) => x.content === 'about that')?.replyTo;
    expect([await reply(blocker), await reply(third)]).to.deep.equal([hidden, quoted]);
  });

  it('keeps a blocked person\'s message made the notice from the blocker, live and in history', async () => {
    const blocker = await member('Noticer');
    const pest = await member('Noticed');
    const third = await member('Pinner');
    const group = await roomOf(blocker, pest, third);
    const theirs = await say(pest, group, 'read me first');
    const open = await say(third, group, 'the real rules');
    expect((await block(blocker, pest)).status).to.equal(200);
    const mine = await blocker.stomp.subscribe(topics.chatRoomEvents(group));
    const others = await third.stomp.subscribe(topics.chatRoomEvents(group));
    const setNotice = (messageId: number) => third.client.request('PUT', api.roomNotice, { json: { chatRoomId: group, messageId } });

    expect((await setNotice(theirs.messageId)).status).to.equal(200);
    expect((await nextOf(others, 'notice')).notice).to.deep.include({ messageId: theirs.messageId, content: 'read me first' });
    expect((await nextOf(mine, 'notice')).notice).to.equal(null);
    expect([(await history(blocker, group)).notice, (await history(third, group)).notice?.messageId]).to.deep.equal([null, theirs.messageId]);

    expect((await setNotice(open.messageId)).status).to.equal(200);
    expect((await nextOf(mine, 'notice')).notice).to.deep.include({ messageId: open.messageId, content: 'the real rules' });
    expect((await history(blocker, group)).notice?.messageId).to.equal(open.messageId);
  });
});
