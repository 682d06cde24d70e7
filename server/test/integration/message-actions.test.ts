import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatMessage, type ChatSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeChatMessage, decodeRoomEvent } from '@common/events';
import type { RoomEvent } from '@common/payloads';
import { LIMITS } from '@common/rules';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

forEachDatabase('replying to, editing, deleting and reacting to messages', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 25, 9, 0, 0);
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

  const connect = async (cookie: string): Promise<TestStomp> => {
    const stomp = await connectStomp(server, cookie);
    open.push(stomp);
    return stomp;
  };
  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    return { user, client, stomp: await connect(client.cookieHeader()) };
  };
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const history = async (m: Member, roomId: number, query = '&page=0'): Promise<ChatHistoryResponse> =>
    (await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`)).body;
  /** Sends a message and answers it as the room topic delivered it. */
  const say = async (m: Member, roomId: number, content: string, extra: object = {}): Promise<ChatMessage> => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content, ...extra });
    const message = decodeChatMessage((await inbox.next()).json(), roomId)!;
    inbox.unsubscribe();
    return message;
  };
  /** The next event about messages (read, typing and presence events are passed over). */
  const nextChange = async (inbox: Inbox, roomId: number): Promise<RoomEvent> => {
    for (;;) {
      const event = decodeRoomEvent((await inbox.next()).json(), roomId);
      if (event && (event.type === 'edited' || event.type === 'deleted' || event.type === 'reaction')) return event;
    }
  };
  /** The ERROR frame's message for a SEND refused, on a fresh connection (an ERROR ends it). */
  const refusal = async (m: Member, destination: string, body: object): Promise<string> => {
    const stomp = await connect(m.client.cookieHeader());
    try {
      await stomp.send(destination, body);
    } catch (err) {
      if (err instanceof StompErrorFrame) return err.frame.headers.message ?? '';
      throw err;
    }
    throw new Error('expected the server to refuse with an ERROR frame');
  };
  const inHistory = async (m: Member, roomId: number, messageId: number): Promise<ChatMessage> =>
    (await history(m, roomId)).messages.find((x) => x.messageId === messageId)!;

  it('tells the room an edit of one\'s own message and keeps it in history, refusing others\' messages, outsiders and broken text', async () => {
    const a = await member('Editor');
    const b = await member('Reader');
    const roomId = await roomOf(a, b);
    const events = await b.stomp.subscribe(topics.chatRoomEvents(roomId));
    const sent = await say(a, roomId, 'helo');

    now += 60_000;
    await a.stomp.send(app.editMessage, { chatRoomId: roomId, messageId: sent.messageId, content: '  hello  ' });
    const edited = await nextChange(events, roomId);
    expect(edited).to.deep.include({ type: 'edited', chatRoomId: roomId, messageId: sent.messageId, content: 'hello', editedAt: new Date(now).toISOString() });
    const stored = await inHistory(b, roomId, sent.messageId);
    expect(stored).to.deep.include({ content: 'hello', editedAt: new Date(now).toISOString(), seq: sent.seq });
    expect(stored.deleted).to.equal(undefined);

    const outsider = await member('Outsider');
    expect(await refusal(b, app.editMessage, { chatRoomId: roomId, messageId: sent.messageId, content: 'mine now' })).to.match(/own messages/);
    expect(await refusal(outsider, app.editMessage, { chatRoomId: roomId, messageId: sent.messageId, content: 'x' })).to.match(/member/);
    expect(await refusal(a, app.editMessage, { chatRoomId: roomId, messageId: sent.messageId, content: '   ' })).to.match(/1 to 3000/);
    expect(await refusal(a, app.editMessage, { chatRoomId: roomId, messageId: sent.messageId, content: 'x'.repeat(LIMITS.message + 1) })).to.match(/1 to 3000/);
    expect(await refusal(a, app.editMessage, { chatRoomId: roomId, messageId: sent.messageId, content: 'hi\u200F' })).to.match(/control or bidi-override/);
    const otherRoom = await roomOf(a, outsider);
    expect(await refusal(a, app.editMessage, { chatRoomId: otherRoom, messageId: sent.messageId, content: 'moved' })).to.match(/no such message/);
    expect((await inHistory(a, roomId, sent.messageId)).content).to.equal('hello');
  });

  it('deletes one\'s own message for everyone within 24 hours: its place stays, its text is gone everywhere, and the chat list shows the deleted text', async () => {
    const a = await member('Regretful');
    const b = await member('Witness');
    const roomId = await roomOf(a, b);
    const events = await b.stomp.subscribe(topics.chatRoomEvents(roomId));
    const old = await say(a, roomId, 'said long ago');
    now += LIMITS.deleteForEveryoneMs + 1;
    const oops = await say(a, roomId, 'my password is hunter2');
    const others = await say(b, roomId, 'not yours');

    expect(await refusal(a, app.deleteMessage, { chatRoomId: roomId, messageId: old.messageId })).to.match(/24 hours/);
    expect(await refusal(a, app.deleteMessage, { chatRoomId: roomId, messageId: others.messageId })).to.match(/own messages/);
    const outsider = await member('Stranger');
    expect(await refusal(outsider, app.deleteMessage, { chatRoomId: roomId, messageId: oops.messageId })).to.match(/member/);

    await say(a, roomId, 'newest, soon gone');
    const newest = (await history(a, roomId)).messages.at(-1)!;
    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: oops.messageId });
    expect(await nextChange(events, roomId)).to.deep.include({ type: 'deleted', chatRoomId: roomId, messageId: oops.messageId });
    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: newest.messageId });
    expect(await nextChange(events, roomId)).to.deep.include({ type: 'deleted', chatRoomId: roomId, messageId: newest.messageId });
    // Deleting again is no error and tells nobody again.
    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: oops.messageId });
    await events.nothingSoFar(); // the handler publishes before its RECEIPT

    const page = (await history(b, roomId)).messages;
    expect(page.map((m) => m.seq)).to.deep.equal([old.seq, oops.seq, others.seq, newest.seq]);
    expect(page[1]).to.deep.include({ messageId: oops.messageId, deleted: true, content: '' });
    expect((await server.db('messages').where({ id: oops.messageId }).first()).content).to.equal('');
    const summary = (await b.client.get<ChatSummary[]>(api.chats)).body.find((r) => r.chatRoomId === roomId)!;
    expect(summary.lastMessage).to.equal(DELETED_MESSAGE_TEXT);
    expect(await refusal(a, app.editMessage, { chatRoomId: roomId, messageId: oops.messageId, content: 'undo' })).to.match(/deleted/);
  });

  it('carries a reply\'s quote of the original, cut to 100 characters, and shows the deleted text once the original is deleted', async () => {
    const a = await member('Quoted');
    const b = await member('Replier');
    const roomId = await roomOf(a, b);
    const long = '가'.repeat(99) + '😀' + 'tail';
    const original = await say(a, roomId, long);
    const reply = await say(b, roomId, '그러게요', { replyToMessageId: original.messageId });
    const quote = { messageId: original.messageId, senderName: 'Quoted', content: '가'.repeat(99) + '😀' };
    expect(reply.replyTo).to.deep.equal(quote);
    expect((await inHistory(a, roomId, reply.messageId)).replyTo).to.deep.equal(quote);

    const elsewhere = await roomOf(a, await member('Third'));
    expect(await refusal(a, app.privateMessage, { chatRoomId: elsewhere, content: 'cross', replyToMessageId: original.messageId })).to.match(/not a message of this chat room/);
    expect(await refusal(b, app.privateMessage, { chatRoomId: roomId, content: 'x', replyToMessageId: 'one' })).to.match(/replyToMessageId/);

    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: original.messageId });
    expect((await inHistory(a, roomId, reply.messageId)).replyTo).to.deep.equal({
      messageId: original.messageId, senderName: 'Quoted', content: DELETED_MESSAGE_TEXT, deleted: true,
    });
    expect(await refusal(b, app.privateMessage, { chatRoomId: roomId, content: 'late', replyToMessageId: original.messageId })).to.match(/deleted/);
  });

  it('sets and clears reactions idempotently, tells each real change, and lists them in history', async () => {
    const a = await member('Poster');
    const b = await member('Fan');
    const roomId = await roomOf(a, b);
    const events = await a.stomp.subscribe(topics.chatRoomEvents(roomId));
    const m = await say(a, roomId, 'react to me');
    const react = (who: Member, emoji: string, on: boolean) => {
      now += 1000; // reactions list in the order given
      return who.stomp.send(app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji, on });
    };

    await react(b, '👍', true);
    expect(await nextChange(events, roomId)).to.deep.include({ type: 'reaction', messageId: m.messageId, userId: b.user.userId, emoji: '👍', on: true });
    await react(b, '👍', true);
    await react(a, '😂', true);
    expect(await nextChange(events, roomId)).to.deep.include({ type: 'reaction', userId: a.user.userId, emoji: '😂', on: true });
    await react(a, '👍', true);
    await nextChange(events, roomId);
    await react(b, '❤️', true);
    await nextChange(events, roomId);
    await react(b, '❤️', false);
    expect(await nextChange(events, roomId)).to.deep.include({ type: 'reaction', userId: b.user.userId, emoji: '❤️', on: false });
    await react(b, '❤️', false);
    await events.nothingSoFar(); // the handler publishes before its RECEIPT

    expect((await inHistory(b, roomId, m.messageId)).reactions).to.deep.equal([
      { emoji: '👍', userIds: [b.user.userId, a.user.userId] },
      { emoji: '😂', userIds: [a.user.userId] },
    ]);
    expect(await refusal(b, app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji: 'ok', on: true })).to.match(/exactly one emoji/);
    expect(await refusal(b, app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji: '👍', on: 'yes' })).to.match(/on must be/);
    expect(await refusal(await member('Nobody'), app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji: '👍', on: true })).to.match(/member/);

    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: m.messageId });
    const gone = await inHistory(b, roomId, m.messageId);
    expect(gone.reactions).to.equal(undefined);
    expect(await refusal(b, app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji: '🙏', on: true })).to.match(/deleted/);
  });

  it('takes any single emoji as a reaction (flags, ZWJ sequences, skin tones) and refuses anything that is not exactly one', async () => {
    const a = await member('Emoji Poster');
    const b = await member('Emoji Fan');
    const roomId = await roomOf(a, b);
    const events = await a.stomp.subscribe(topics.chatRoomEvents(roomId));
    const m = await say(a, roomId, 'any emoji');
    const given = ['🔥', '🇰🇷', '👩‍💻', '👍🏽', '👩🏻‍❤️‍💋‍👨🏼', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'];
    for (const emoji of given) {
      now += 1000;
      await b.stomp.send(app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji, on: true });
      expect(await nextChange(events, roomId)).to.deep.include({ type: 'reaction', userId: b.user.userId, emoji, on: true });
    }
    // 👍 and 👍🏽 are two reactions: the column compares bytes (utf8mb4_bin on MariaDB).
    now += 1000;
    await a.stomp.send(app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji: '👍', on: true });
    await nextChange(events, roomId);
    for (const emoji of ['👍👍', 'a', '1', '👍 ok', '', ' ', 'ㅋ']) {
      expect(await refusal(b, app.reaction, { chatRoomId: roomId, messageId: m.messageId, emoji, on: true }), JSON.stringify(emoji)).to.match(/exactly one emoji/);
    }
    await events.nothingSoFar();
    expect((await inHistory(b, roomId, m.messageId)).reactions).to.deep.equal([
      ...given.map((emoji) => ({ emoji, userIds: [b.user.userId] })),
      { emoji: '👍', userIds: [a.user.userId] },
    ]);
  });

  it('gives a reconnecting client every message changed while it was away, from the change counter it last saw', async () => {
    const a = await member('Active');
    const b = await member('Away');
    const roomId = await roomOf(a, b);
    const first = await say(a, roomId, 'first');
    const second = await say(a, roomId, 'second');
    const third = await say(a, roomId, 'third');
    const seen = await history(b, roomId);
    expect(seen.lastChangeSeq).to.equal(0);

    await a.stomp.send(app.editMessage, { chatRoomId: roomId, messageId: first.messageId, content: 'first, fixed' });
    await a.stomp.send(app.reaction, { chatRoomId: roomId, messageId: second.messageId, emoji: '🙏', on: true });
    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: third.messageId });
    await a.stomp.send(app.editMessage, { chatRoomId: roomId, messageId: first.messageId, content: 'first, fixed again' });

    const changes = await history(b, roomId, `&changedSince=${seen.lastChangeSeq}`);
    expect(changes.hasMore).to.equal(false);
    expect(changes.lastChangeSeq).to.equal(4);
    expect(changes.messages.map((m) => [m.messageId, m.changeSeq])).to.deep.equal([[second.messageId, 2], [third.messageId, 3], [first.messageId, 4]]);
    expect(changes.messages[0].reactions).to.deep.equal([{ emoji: '🙏', userIds: [a.user.userId] }]);
    expect(changes.messages[1]).to.deep.include({ deleted: true, content: '' });
    expect(changes.messages[2]).to.deep.include({ content: 'first, fixed again' });
    expect((await history(b, roomId, '&changedSince=4')).messages).to.deep.equal([]);
    expect((await b.client.get(`${api.chatHistory}?chatRoomId=${roomId}&changedSince=2&afterSeq=1`)).status).to.equal(400);
    const outsider = await member('Peeker');
    expect((await outsider.client.get(`${api.chatHistory}?chatRoomId=${roomId}&changedSince=0`)).status).to.equal(403);
  });
});
