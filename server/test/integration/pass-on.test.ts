// Passing messages on (issue 27, docs/protocol.md): /app/forward-message, /app/hide-message
// (delete for me) and POST /api/chat-room/self (나와의 채팅), over real STOMP and REST on both
// databases, with their refusals.
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type Attachment, type ChatHistoryResponse, type ChatMessage, type ChatSummary, type MessageSearchResponse } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeChatMessage, decodeRoomEvent } from '@common/events';
import { MEMO_ROOM_NAME } from '@common/system-text';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

forEachDatabase('forwarding, delete for me and the memo room', (db) => {
  let server: RunningServer;
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
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
  const groupOf = async (a: Member, ...others: Member[]): Promise<number> => {
    const roomId = await roomOf(a, others[0]);
    for (const o of others.slice(1)) expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: o.user.userId })).status).to.equal(200);
    return roomId;
  };
  const history = async (m: Member, roomId: number, query = '&page=0'): Promise<ChatHistoryResponse> => {
    const res = await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`);
    expect(res.status).to.equal(200);
    return res.body;
  };
  const say = async (m: Member, roomId: number, content: string, extra: object = {}): Promise<ChatMessage> => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content, ...extra });
    const message = decodeChatMessage((await inbox.next()).json(), roomId)!;
    inbox.unsubscribe();
    return message;
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
  /** No `hidden` event here once a round trip on its connection is done (other room events pass). */
  const noHiddenSoFar = async (stomp: TestStomp, inbox: Inbox, roomId: number) => {
    await stomp.roundTrip();
    expect(inbox.drain().map((m) => decodeRoomEvent(m.json(), roomId)?.type)).to.not.include('hidden');
  };
  const get = (m: Member, path: string) => fetch(server.url + path, { headers: { cookie: m.client.cookieHeader() } });
  const search = async (m: Member, keyword: string, roomId: number): Promise<number[]> =>
    (await m.client.get<MessageSearchResponse>(`${api.messageSearch}?keyword=${encodeURIComponent(keyword)}&chatRoomId=${roomId}`)).body.results.map((r) => r.messageId);

  describe('/app/forward-message', () => {
    it('forwards a message to two rooms as a new message of the forwarder marked forwarded, live and in history', async () => {
      const a = await member('Forwarder');
      const b = await member('Source');
      const c = await member('Cee');
      const d = await member('Dee');
      const source = await roomOf(a, b);
      const toC = await roomOf(a, c);
      const toD = await roomOf(a, d);
      const original = await say(b, source, '회의는 3시에');
      expect(original.forwarded).to.equal(undefined);
      const atC = await c.stomp.subscribe(topics.privateChat(toC));
      const atD = await d.stomp.subscribe(topics.privateChat(toD));

      await a.stomp.send(app.forwardMessage, { messageId: original.messageId, chatRoomIds: [toC, toD] });
      // The chat list shows the forward as the room's newest, unread.
      const row = (await c.client.get<ChatSummary[]>(api.chats)).body.find((r) => r.chatRoomId === toC)!;
      expect(row).to.include({ lastMessage: '회의는 3시에', unreadCount: 1 });
      for (const [inbox, roomId] of [[atC, toC], [atD, toD]] as const) {
        const got = decodeChatMessage((await inbox.next()).json(), roomId)!;
        expect(got).to.deep.include({ chatRoomId: roomId, senderId: a.user.userId, senderName: 'Forwarder', content: '회의는 3시에', forwarded: true, seq: 1 });
        expect(got.messageId).to.not.equal(original.messageId);
        const stored = (await history(roomId === toC ? c : d, roomId)).messages;
        expect(stored).to.have.length(1);
        expect(stored[0]).to.deep.include({ messageId: got.messageId, forwarded: true, content: '회의는 3시에' });
      }
      // The original stays as it was.
      expect((await history(b, source)).messages[0].forwarded).to.equal(undefined);
    });

    it('refuses 11 rooms, a room the forwarder is not in (sending to none), a message they cannot read, a deleted one and a system message', async () => {
      const a = await member('Picky');
      const b = await member('Bea');
      const c = await member('Cyd');
      const outsider = await member('Outsider');
      const source = await roomOf(a, b);
      const mine = await roomOf(a, c);
      const notMine = await roomOf(b, outsider);
      const message = await say(b, source, 'pass me on');

      const eleven = Array.from({ length: 11 }, (_, i) => mine + i);
      expect(await refusal(a, app.forwardMessage, { messageId: message.messageId, chatRoomIds: eleven })).to.match(/at most 10 chat rooms/);
      expect(await refusal(a, app.forwardMessage, { messageId: message.messageId, chatRoomIds: [] })).to.match(/chatRoomIds/);
      expect(await refusal(a, app.forwardMessage, { messageId: message.messageId, chatRoomIds: 'all' })).to.match(/chatRoomIds/);
      // One room the forwarder is not in: refused, and nothing reaches the room they are in either.
      expect(await refusal(a, app.forwardMessage, { messageId: message.messageId, chatRoomIds: [mine, notMine] })).to.match(/not a member/);
      expect((await history(c, mine)).messages).to.deep.equal([]);
      expect((await history(b, notMine)).messages).to.deep.equal([]);
      // From a room the forwarder is not in: as unknown as no message at all.
      const elsewhere = await say(b, notMine, 'private');
      expect(await refusal(a, app.forwardMessage, { messageId: elsewhere.messageId, chatRoomIds: [mine] })).to.match(/no such message/);
      expect(await refusal(a, app.forwardMessage, { messageId: 999_999_999, chatRoomIds: [mine] })).to.match(/no such message/);
      await b.stomp.send(app.deleteMessage, { chatRoomId: source, messageId: message.messageId });
      expect(await refusal(a, app.forwardMessage, { messageId: message.messageId, chatRoomIds: [mine] })).to.match(/deleted/);
      await a.client.post(api.updateSubject, { chatRoomId: source, chatRoomName: 'Renamed' });
      const rename = (await history(a, source)).messages.find((m) => m.systemEvent?.type === 'renamed')!;
      expect(await refusal(a, app.forwardMessage, { messageId: rename.messageId, chatRoomIds: [mine] })).to.match(/system message/);
      expect((await history(c, mine)).messages).to.deep.equal([]);
      // Ten distinct rooms (a room named twice counts once) are accepted.
      await a.stomp.send(app.forwardMessage, { messageId: (await say(b, source, 'twice')).messageId, chatRoomIds: [mine, mine] });
      expect((await history(c, mine)).messages.map((m) => m.content)).to.deep.equal(['twice']);
    });

    it('applies blocks as to a sent message: a member who blocked the forwarder never gets it, and a blocked sender\'s message cannot be forwarded', async () => {
      const a = await member('Blocked One');
      const c = await member('Blocker');
      const e = await member('Bystander');
      const group = await groupOf(a, c, e);
      expect((await c.client.request('PUT', api.block(a.user.userId))).status).to.equal(200);
      const atC = await c.stomp.subscribe(topics.privateChat(group));
      const atE = await e.stomp.subscribe(topics.privateChat(group));
      const source = await roomOf(a, e);
      const original = await say(e, source, 'news for all');

      await a.stomp.send(app.forwardMessage, { messageId: original.messageId, chatRoomIds: [group] });
      const got = decodeChatMessage((await atE.next()).json(), group)!;
      expect(got).to.deep.include({ content: 'news for all', forwarded: true, senderId: a.user.userId });
      await atC.nothingSoFar();
      expect((await history(c, group)).messages.some((m) => m.messageId === got.messageId)).to.equal(false);
      expect((await history(e, group)).messages.some((m) => m.messageId === got.messageId)).to.equal(true);

      // The blocker cannot pass on what they do not see.
      const fromA = await say(a, group, 'from the blocked one');
      const cAndE = await roomOf(c, e);
      expect(await refusal(c, app.forwardMessage, { messageId: fromA.messageId, chatRoomIds: [cAndE] })).to.match(/no such message/);
    });

    it('references the original\'s attachment (the same id), readable by the target room, kept while a forward shows it', async () => {
      const a = await member('Photographer');
      const b = await member('Friend');
      const c = await member('Other');
      const outsider = await member('Nosy');
      const source = await roomOf(a, b);
      const target = await roomOf(a, c);
      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
      const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${source}`, {
        method: 'POST', headers: { cookie: a.client.cookieHeader(), 'content-type': 'image/png', 'x-file-name': 'blue.png' }, body: new Uint8Array(photo),
      });
      expect(res.status).to.equal(200);
      const att = (await res.json()) as Attachment;
      const original = await say(a, source, '', { attachmentId: att.attachmentId });
      expect(await get(c, att.url).then((r) => r.status)).to.equal(403);

      const atC = await c.stomp.subscribe(topics.privateChat(target));
      await a.stomp.send(app.forwardMessage, { messageId: original.messageId, chatRoomIds: [target] });
      const forward = decodeChatMessage((await atC.next()).json(), target)!;
      expect(forward.forwarded).to.equal(true);
      expect(forward.attachment).to.deep.equal(original.attachment);
      expect((await history(c, target)).messages[0].attachment).to.deep.equal(original.attachment);
      expect(await get(c, att.url).then((r) => r.status)).to.equal(200);
      expect(await get(c, att.thumbnailUrl!).then((r) => r.status)).to.equal(200);
      expect(await get(outsider, att.url).then((r) => r.status)).to.equal(403);
      expect(Number((await server.db('attachments').count({ n: '*' }).first())?.n)).to.equal(1);

      // The original deleted for everyone: the forward still shows the file.
      await a.stomp.send(app.deleteMessage, { chatRoomId: source, messageId: original.messageId });
      expect(await get(b, att.url).then((r) => r.status)).to.equal(404);
      expect(await get(c, att.url).then((r) => r.status)).to.equal(200);
      expect((await history(c, target)).messages[0].attachment?.attachmentId).to.equal(att.attachmentId);
      // The last message showing it deleted: the file goes.
      await a.stomp.send(app.deleteMessage, { chatRoomId: target, messageId: forward.messageId });
      expect(await get(c, att.url).then((r) => r.status)).to.equal(404);
      expect(Number((await server.db('attachments').count({ n: '*' }).first())?.n)).to.equal(0);
    });

    it('keeps a forwarded photo when its own room is deleted: it moves to the forward\'s room, whose readers keep it', async () => {
      const a = await member('Sender');
      const b = await member('Leaver');
      const c = await member('Keeper');
      const source = await roomOf(a, b);
      const target = await roomOf(a, c);
      const upload = async (body: Buffer, type: string): Promise<Attachment> => {
        const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${source}`, {
          method: 'POST', headers: { cookie: a.client.cookieHeader(), 'content-type': type, 'x-file-name': 'f' }, body: new Uint8Array(body),
        });
        expect(res.status).to.equal(200);
        return (await res.json()) as Attachment;
      };
      const photo = await upload(await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 20 } } }).png().toBuffer(), 'image/png');
      const notForwarded = await upload(Buffer.from('stays behind'), 'text/plain');
      const original = await say(a, source, '', { attachmentId: photo.attachmentId });
      await say(a, source, '', { attachmentId: notForwarded.attachmentId });
      const atC = await c.stomp.subscribe(topics.privateChat(target));
      await a.stomp.send(app.forwardMessage, { messageId: original.messageId, chatRoomIds: [target] });
      const forward = decodeChatMessage((await atC.next()).json(), target)!;
      const rowOf = (att: Attachment) => server.db('attachments').select('room_id').where({ public_id: att.attachmentId }).first() as Promise<{ room_id: number } | undefined>;

      // The last two members leave: the room and what only it showed are deleted.
      expect((await a.client.delete(`${api.leaveChat}?chatRoomId=${source}`)).status).to.equal(200);
      expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${source}`)).status).to.equal(200);
      expect(await server.db('rooms').where({ id: source }).first()).to.equal(undefined);
      expect(await rowOf(notForwarded)).to.equal(undefined);

      expect(Number((await rowOf(photo))?.room_id)).to.equal(target);
      expect(await get(c, photo.url).then((r) => r.status)).to.equal(200);
      expect(await get(c, photo.thumbnailUrl!).then((r) => r.status)).to.equal(200);
      expect(await get(b, photo.url).then((r) => r.status)).to.equal(403);
      expect((await history(c, target)).messages.at(-1)?.attachment).to.deep.equal(forward.attachment);
      // The forward deleted, nothing shows it any more: it goes.
      await a.stomp.send(app.deleteMessage, { chatRoomId: target, messageId: forward.messageId });
      expect(await get(c, photo.url).then((r) => r.status)).to.equal(404);
      expect(await rowOf(photo)).to.equal(undefined);
    });
  });

  describe('/app/hide-message', () => {
    it('leaves the message out of the hider\'s history (every form) and search, tells their other tabs, and no one else', async () => {
      const a = await member('Hider');
      const b = await member('Talker');
      const roomId = await roomOf(a, b);
      const first = await say(b, roomId, 'apple one');
      const second = await say(b, roomId, 'apple two');
      const third = await say(b, roomId, 'apple three');
      const otherTab = await connect(a.client.cookieHeader());
      const aEvents = await otherTab.subscribe(topics.chatRoomEvents(roomId));
      const bEvents = await b.stomp.subscribe(topics.chatRoomEvents(roomId));

      await a.stomp.send(app.hideMessage, { messageId: second.messageId });
      let told = decodeRoomEvent((await aEvents.next()).json(), roomId);
      while (told?.type !== 'hidden') told = decodeRoomEvent((await aEvents.next()).json(), roomId);
      expect(told).to.deep.equal({ type: 'hidden', chatRoomId: roomId, messageId: second.messageId });
      await noHiddenSoFar(b.stomp, bEvents, roomId);

      const ids = (r: ChatHistoryResponse) => r.messages.map((m) => m.messageId);
      expect(ids(await history(a, roomId))).to.deep.equal([first.messageId, third.messageId]);
      expect(ids(await history(a, roomId, '&afterSeq=0'))).to.deep.equal([first.messageId, third.messageId]);
      expect(ids(await history(a, roomId, `&beforeId=${third.messageId}`))).to.deep.equal([first.messageId]);
      expect(ids(await history(a, roomId, `&aroundSeq=${second.seq}`))).to.deep.equal([first.messageId, third.messageId]);
      await b.stomp.send(app.reaction, { chatRoomId: roomId, messageId: second.messageId, emoji: '👍', on: true });
      await b.stomp.send(app.editMessage, { chatRoomId: roomId, messageId: third.messageId, content: 'apple three!' });
      expect(ids(await history(a, roomId, '&changedSince=0'))).to.deep.equal([third.messageId]);
      expect(ids(await history(b, roomId))).to.deep.equal([first.messageId, second.messageId, third.messageId]);
      expect(ids(await history(b, roomId, '&changedSince=0'))).to.deep.equal([second.messageId, third.messageId]);
      expect(await search(a, 'apple', roomId)).to.deep.equal([third.messageId, first.messageId]);
      expect(await search(b, 'apple', roomId)).to.deep.equal([third.messageId, second.messageId, first.messageId]);

      // Again: no error, nothing told again.
      await a.stomp.send(app.hideMessage, { messageId: second.messageId });
      await noHiddenSoFar(otherTab, aEvents, roomId);
      expect(Number((await server.db('hidden_messages').where({ user_id: a.user.userId }).count({ n: '*' }).first())?.n)).to.equal(1);
    });

    it('refuses a message of a room the user is not in, an unknown one and a malformed body', async () => {
      const a = await member('Stranger');
      const b = await member('Owner');
      const c = await member('Peer');
      const roomId = await roomOf(b, c);
      const message = await say(b, roomId, 'not yours to hide');
      expect(await refusal(a, app.hideMessage, { messageId: message.messageId })).to.match(/no such message/);
      expect(await refusal(a, app.hideMessage, { messageId: 999_999_999 })).to.match(/no such message/);
      expect(await refusal(a, app.hideMessage, { messageId: 'x' })).to.match(/messageId/);
      expect(Number((await server.db('hidden_messages').where({ user_id: a.user.userId }).count({ n: '*' }).first())?.n)).to.equal(0);
    });
  });

  describe('POST /api/chat-room/self', () => {
    it('makes the user\'s memo room once (concurrent first uses too), listed first as 나와의 채팅 with one member', async () => {
      const a = await member('Memo Keeper');
      const b = await member('Someone');
      const shared = await roomOf(a, b);
      await say(b, shared, 'newer than the memo room');
      const answers = await Promise.all([0, 1, 2, 3].map(() => a.client.post<{ chatRoomId: number }>(api.selfRoom)));
      for (const r of answers) expect(r.status).to.equal(200);
      const ids = new Set(answers.map((r) => r.body.chatRoomId));
      expect(ids.size).to.equal(1);
      const [memo] = ids;
      expect(Number((await server.db('rooms').where({ self_user_id: a.user.userId }).count({ n: '*' }).first())?.n)).to.equal(1);
      expect((await b.client.post<{ chatRoomId: number }>(api.selfRoom)).body.chatRoomId).to.not.equal(memo);

      const list = (await a.client.get<ChatSummary[]>(api.chats)).body;
      expect(list[0]).to.deep.include({ chatRoomId: memo, chatRoomName: MEMO_ROOM_NAME, memberCount: 1, self: true, pinned: true });
      expect(list[1].chatRoomId).to.equal(shared);
      expect(list[1].self).to.equal(undefined);

      const page = await history(a, memo);
      expect(page).to.deep.include({ chatRoomName: MEMO_ROOM_NAME, renamed: true });
      expect(page.users.map((u) => u.userId)).to.deep.equal([a.user.userId]);
      const note = await say(a, memo, 'buy milk');
      expect(note).to.deep.include({ content: 'buy milk', senderId: a.user.userId });
      // Forwarding into it works like any room of the user's.
      const fromB = await say(b, shared, 'a link to keep');
      await a.stomp.send(app.forwardMessage, { messageId: fromB.messageId, chatRoomIds: [memo] });
      expect((await history(a, memo)).messages.map((m) => [m.content, m.forwarded ?? false])).to.deep.equal([['buy milk', false], ['a link to keep', true]]);
      expect((await a.client.post(api.selfRoom)).body.chatRoomId).to.equal(memo);
    });

    it('refuses adding anyone to a memo room, and someone else\'s memo room to anyone but its owner', async () => {
      const a = await member('Solo');
      const b = await member('Intruder');
      const memo = (await a.client.post<{ chatRoomId: number }>(api.selfRoom)).body.chatRoomId;
      const added = await a.client.post(api.addUser, { chatRoomId: memo, userId: b.user.userId });
      expect(added.status).to.equal(400);
      expect(added.body.message).to.match(/memo room/);
      expect((await b.client.get(`${api.chatHistory}?chatRoomId=${memo}&page=0`)).status).to.equal(403);
      expect(await refusal(b, app.privateMessage, { chatRoomId: memo, content: 'hi' })).to.match(/member/);
      const unsigned = await fetch(server.url + api.selfRoom, { method: 'POST' });
      expect(unsigned.status).to.equal(401);
    });
  });
});
