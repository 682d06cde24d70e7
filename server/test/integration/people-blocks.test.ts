// Blocking (docs/protocol.md, blocks) over raw REST and STOMP on both databases: the list and
// its errors, and every effect, none of which the blocked person can tell: their messages are
// stored but neither delivered to the blocker nor in the blocker's history, search or unread
// counts; their calls end as `unavailable`; adding the blocker to a room is answered as done
// and does nothing; a new 1:1 they open does not show in the blocker's chat list.
import { expect } from 'chai';
import { api, type BlockedUser, type ChatHistoryResponse, type ChatMessage, type ChatSummary, type Friend, type MessageSearchResponse } from '@common/api';
import { app, queues, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import type { CallEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

forEachDatabase('blocking someone', (db) => {
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

  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    const stomp = await connectStomp(server, client.cookieHeader());
    open.push(stomp);
    return { user, client, stomp };
  };
  const put = <T>(m: Member, path: string, json?: unknown) => m.client.request<T>('PUT', path, json === undefined ? {} : { json });
  const block = (m: Member, other: Member) => put<BlockedUser[]>(m, api.block(other.user.userId));
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const history = async (m: Member, roomId: number, query = '&page=0'): Promise<ChatHistoryResponse> =>
    (await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`)).body;
  const list = async (m: Member): Promise<ChatSummary[]> => (await m.client.get<ChatSummary[]>(api.chats)).body;
  /** Sends a message; answers it as the sender's own subscription of the room topic got it. */
  const say = async (m: Member, roomId: number, content: string): Promise<ChatMessage> => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content });
    const message = decodeChatMessage((await inbox.next()).json(), roomId)!;
    inbox.unsubscribe();
    return message;
  };

  it('lists the people blocked by name, refuses oneself, malformed ids and unknown people, and unfriends whom it blocks', async () => {
    const ann = await member('Ann');
    const zed = await member('Zed');
    const bob = await member('Bob');
    expect((await ann.client.get<BlockedUser[]>(api.blocks)).body).to.deep.equal([]);
    expect((await put(ann, api.friend(zed.user.userId), {})).status).to.equal(200);

    expect((await block(ann, zed)).body).to.deep.equal([{ userId: zed.user.userId, name: 'Zed', photoVersion: null }]);
    const both = await block(ann, bob);
    expect(both.body.map((b) => b.name)).to.deep.equal(['Bob', 'Zed']);
    // Again is once.
    expect((await block(ann, bob)).body).to.have.length(2);
    expect((await ann.client.get<Friend[]>(api.friends)).body).to.deep.equal([]);

    expect((await put(ann, api.block(ann.user.userId))).status).to.equal(400);
    expect((await put(ann, api.block('x1'))).status).to.equal(400);
    expect((await put(ann, api.block(999999999))).status).to.equal(404);
    expect((await ann.client.delete(api.block(ann.user.userId))).status).to.equal(400);

    const after = await ann.client.delete<BlockedUser[]>(api.block(bob.user.userId));
    expect([after.status, after.body.map((b) => b.name)]).to.deep.equal([200, ['Zed']]);
    expect((await ann.client.delete(api.block(bob.user.userId))).status).to.equal(404);
    // Bob never learns of any of it: his own list is his own.
    expect((await bob.client.get<BlockedUser[]>(api.blocks)).body).to.deep.equal([]);
    expect((await fetch(server.url + api.blocks)).status).to.equal(401);
  });

  it('stores a blocked person\'s messages but keeps them from the blocker: not delivered, not in history, search or unread counts', async () => {
    const blocker = await member('Blocker');
    const pest = await member('Pest');
    const third = await member('Third');
    const room = await roomOf(blocker, pest);
    expect((await blocker.client.post(api.addUser, { chatRoomId: room, userId: third.user.userId })).status).to.equal(200);
    const before = await say(pest, room, 'before the block 회의');
    expect((await block(blocker, pest)).status).to.equal(200);

    const blockerInbox = await blocker.stomp.subscribe(topics.privateChat(room));
    const thirdInbox = await third.stomp.subscribe(topics.privateChat(room));
    const hidden = await say(pest, room, 'after the block 회의');
    expect(decodeChatMessage((await thirdInbox.next()).json(), room)).to.deep.include({ messageId: hidden.messageId });
    const visible = await say(third, room, 'from third');
    // The first the blocker receives is the third member's message, sent after.
    expect(decodeChatMessage((await blockerInbox.next()).json(), room)).to.deep.include({ messageId: visible.messageId });

    expect(await server.db('messages').where({ id: hidden.messageId }).first('id')).to.not.equal(undefined);
    const mine = (await history(blocker, room)).messages;
    // Theirs from before the block too: the blocker's history holds none of the pest's messages.
    expect(mine.filter((m) => m.senderId !== null).map((m) => m.messageId)).to.deep.equal([visible.messageId]);
    expect((await history(blocker, room, `&afterSeq=${before.seq! - 1}`)).messages.map((m) => m.messageId)).to.deep.equal([visible.messageId]);
    expect((await history(third, room)).messages.map((m) => m.messageId)).to.include(hidden.messageId);

    const found = await blocker.client.get<MessageSearchResponse>(`${api.messageSearch}?keyword=${encodeURIComponent('회의')}`);
    expect(found.body.results).to.deep.equal([]);
    expect((await third.client.get<MessageSearchResponse>(`${api.messageSearch}?keyword=${encodeURIComponent('회의')}`)).body.results).to.have.length(2);

    // Unread: the blocker read nothing since opening the room's history above; a new message
    // from the pest adds nothing, one from the third member adds one.
    await say(pest, room, 'unseen');
    // Nor is it the row's last message: the one before it is.
    expect((await list(blocker)).find((r) => r.chatRoomId === room)?.lastMessage).to.equal('from third');
    expect((await list(third)).find((r) => r.chatRoomId === room)?.lastMessage).to.equal('unseen');
    await say(third, room, 'seen');
    const row = (await list(blocker)).find((r) => r.chatRoomId === room)!;
    expect(row.unreadCount).to.equal(1);
    // (Two messages came after the blocker's read position.)
    const { last_read_seq: readSeq } = await server.db('room_members').where({ room_id: room, user_id: blocker.user.userId }).first('last_read_seq');
    expect(row.lastSeq! - Number(readSeq)).to.equal(2);

    // Nor are their room events: an edit of theirs reaches the third member, not the blocker.
    const blockerEvents = await blocker.stomp.subscribe(topics.chatRoomEvents(room));
    const thirdEvents = await third.stomp.subscribe(topics.chatRoomEvents(room));
    const nextEdit = async (inbox: typeof thirdEvents) => {
      for (;;) {
        const event = (await inbox.next()).json<{ type: string; messageId?: number }>();
        if (event.type === 'edited') return event.messageId;
      }
    };
    await pest.stomp.send(app.editMessage, { chatRoomId: room, messageId: hidden.messageId, content: 'edited in secret' });
    expect(await nextEdit(thirdEvents)).to.equal(hidden.messageId);
    await third.stomp.send(app.editMessage, { chatRoomId: room, messageId: visible.messageId, content: 'edited openly' });
    expect(await nextEdit(blockerEvents)).to.equal(visible.messageId);

    // Unblocked, the pest's messages are the blocker's to read again.
    expect((await blocker.client.delete(api.block(pest.user.userId))).status).to.equal(200);
    expect((await history(blocker, room)).messages.map((m) => m.messageId)).to.include(hidden.messageId);
  });

  it('answers a blocked person\'s call as unavailable, adds no one when they add the blocker, and hides the 1:1 they open', async () => {
    const blocker = await member('Quiet');
    const pest = await member('Caller');
    const friend = await member('Friend');
    expect((await block(blocker, pest)).status).to.equal(200);

    const hangups = await pest.stomp.subscribe(queues.call('hangup', pest.user.userId));
    const incoming = await blocker.stomp.subscribe(queues.call('incoming', blocker.user.userId));
    await pest.stomp.send(app.callInitiate, { targetUserId: blocker.user.userId, userId: pest.user.userId });
    expect((await hangups.next()).json<CallEvent>()).to.deep.include({ reason: 'unavailable' });
    await incoming.nothingSoFar();

    const group = await roomOf(pest, friend);
    const added = await pest.client.post(api.addUser, { chatRoomId: group, userId: blocker.user.userId });
    expect([added.status, added.body]).to.deep.equal([200, { chatRoomId: group, userId: blocker.user.userId }]);
    expect(await server.db('room_members').where({ room_id: group, user_id: blocker.user.userId }).first('user_id')).to.equal(undefined);

    const dm = await roomOf(pest, blocker);
    await say(pest, dm, 'hello?');
    expect((await list(pest)).map((r) => r.chatRoomId)).to.include(dm);
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.not.include(dm);
    // Opening the 1:1 oneself shows it.
    expect(await roomOf(blocker, pest)).to.equal(dm);
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.include(dm);

    // So does unblocking: a 1:1 opened while blocked comes back to the list.
    const other = await member('Other pest');
    expect((await block(blocker, other)).status).to.equal(200);
    const second = await roomOf(other, blocker);
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.not.include(second);
    expect((await blocker.client.delete(api.block(other.user.userId))).status).to.equal(200);
    expect((await list(blocker)).map((r) => r.chatRoomId)).to.include(second);
  });
});
