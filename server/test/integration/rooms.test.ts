import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatSummary, type UserSummary } from '@common/api';
import { LIMITS } from '@common/rules';
import type { RunningServer } from '../../src/main';
import { MessagesRepository } from '../../src/features/chat/messages-repository';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { SmtpReceiver } from '../support/smtp';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient }

forEachDatabase('chat rooms over REST', (db) => {
  let server: RunningServer;
  let smtp: SmtpReceiver;
  let now = Date.UTC(2026, 10, 21, 6, 0, 0);
  const clock = () => now;

  before(async () => {
    smtp = await new SmtpReceiver().start();
    server = await startTestServer({ databaseUrl: db.url(), smtpUrl: smtp.url, clock });
  });
  after(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  const member = (name: string, email?: string): Promise<Member> => newLoggedInUser(server, { name, email });
  const createRoom = async (a: Member, b: Member): Promise<number> => {
    const res = await a.client.post(api.roomCreate, { targetUserId: b.user.userId, targetUserName: 'ignored' });
    expect(res.status, res.text).to.equal(200);
    return res.body.chatRoomId as number;
  };
  const history = (m: Member, roomId: number, query = '') =>
    m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`);

  describe('without a session', () => {
    const anonymous = () => new ApiClient(server.url);
    const calls: Array<[string, (c: ApiClient) => Promise<{ status: number }>]> = [
      ['the chat list', (c) => c.get(api.chats)],
      ['user search', (c) => c.get(`${api.userSearch}?keyword=a`)],
      ['room creation', (c) => c.post(api.roomCreate, { targetUserId: 1 })],
      ['chat history', (c) => c.get(`${api.chatHistory}?chatRoomId=1&page=0`)],
      ['renaming', (c) => c.post(api.updateSubject, { chatRoomId: 1, chatRoomName: 'x' })],
      ['leaving', (c) => c.delete(`${api.leaveChat}?chatRoomId=1`)],
      ['the invite search', (c) => c.get(`${api.roomSearch}?keyword=a&chatRoomId=1`)],
      ['adding a user', (c) => c.post(api.addUser, { chatRoomId: 1, userId: 1 })],
      ['the e-mail notification', (c) => c.post(api.notificationSend, { chatRoomId: 1 })],
    ];
    for (const [what, call] of calls) {
      it(`refuses ${what} with 401`, async () => {
        expect((await call(anonymous())).status).to.equal(401);
      });
    }
  });

  describe('GET /api/user/search', () => {
    let me: Member;
    before(async () => {
      me = await member('Searcher');
      await member('Percent Lover', 'pct100%off@example.test');
      await member('Under Score', 'under_score@example.test');
      await member('Underxscore', 'underxscore@example.test');
    });

    it('finds users whose name contains the keyword, or whose whole e-mail or local part it is, with userId, name, email, online and (ours) photoVersion and statusMessage only', async () => {
      const res = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent('UNDER_SCORE@example.test')}`);
      expect(res.status).to.equal(200);
      expect(res.body.map((u) => u.email)).to.deep.equal(['under_score@example.test']);
      for (const u of res.body) expect(Object.keys(u).sort()).to.deep.equal(['email', 'name', 'online', 'photoVersion', 'statusMessage', 'userId']);
      const byLocalPart = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=underxscore`);
      expect(byLocalPart.body.map((u) => u.email)).to.deep.equal(['underxscore@example.test']);
      const byName = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=percent`);
      expect(byName.body.map((u) => u.name)).to.deep.equal(['Percent Lover']);
    });

    it('does not list the directory for a single character, "@", a domain or part of an address', async () => {
      for (const keyword of ['e', '@', '@example.test', 'example.test', 'score@', 'pct100']) {
        const res = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent(keyword)}`);
        expect(res.status).to.equal(200);
        expect(res.body.map((u) => u.email), keyword).to.deep.equal([]);
      }
    });

    it('matches % and _ literally', async () => {
      const underscore = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent('under_score')}`);
      expect(underscore.body.map((u) => u.email)).to.deep.equal(['under_score@example.test']);
      const percent = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent('pct100%off')}`);
      expect(percent.body.map((u) => u.email)).to.deep.equal(['pct100%off@example.test']);
      const wildcard = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent('under%')}`);
      expect(wildcard.body).to.deep.equal([]);
    });

    it('answers [] for a keyword holding a NUL or another control character, on every database', async () => {
      for (const keyword of ['\u0000', 'a\u0000', '\u0007']) {
        const res = await me.client.get(`${api.userSearch}?keyword=${encodeURIComponent(keyword)}`);
        expect(res.status).to.equal(200);
        expect(res.body, JSON.stringify(keyword)).to.deep.equal([]);
      }
    });

    it('answers [] for an empty, blank or %-only keyword', async () => {
      for (const keyword of ['', '   ', '%', ' % ']) {
        const res = await me.client.get(`${api.userSearch}?keyword=${encodeURIComponent(keyword)}`);
        expect(res.status).to.equal(200);
        expect(res.body, JSON.stringify(keyword)).to.deep.equal([]);
      }
    });

    it('answers at most 50 users', async () => {
      for (let i = 0; i < 55; i++) await member('Many Alike');
      const res = await me.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent('many alike')}`);
      expect(res.body).to.have.length(LIMITS.searchResults);
    });

    it('refuses a keyword over 255 characters with 400', async () => {
      const res = await me.client.get(`${api.userSearch}?keyword=${'a'.repeat(256)}`);
      expect(res.status).to.equal(400);
    });
  });

  describe('POST /api/chat-room/create', () => {
    it('names the room from both real names, whatever targetUserName says, and shows each the other\'s name', async () => {
      const a = await member('Alice');
      const b = await member('Bob');
      const roomId = await createRoom(a, b);
      expect((await server.db('rooms').where({ id: roomId }).first('name')).name).to.equal('Alice, Bob');
      const res = await history(b, roomId);
      expect(res.status).to.equal(200);
      expect(res.body.chatRoomName).to.equal('Alice');
      expect((await history(a, roomId)).body.chatRoomName).to.equal('Bob');
      expect(res.body.users.map((u) => u.userId)).to.deep.equal([a.user.userId, b.user.userId]);
      expect(res.body.messages).to.deep.equal([]);
      expect(res.body.totalPages).to.equal(0);
    });

    it('refuses the caller as target, an unknown user and a malformed id with 400', async () => {
      const a = await member('Alone');
      for (const targetUserId of [a.user.userId, 99_999_999, 'x', -1, null]) {
        const res = await a.client.post(api.roomCreate, { targetUserId });
        expect(res.status, String(targetUserId)).to.equal(400);
      }
      expect((await a.client.get(api.chats)).body).to.deep.equal([]);
    });
  });

  describe('the chat list', () => {
    it('lists only the caller\'s rooms, newest activity first, rooms without messages last', async () => {
      const a = await member('Ann');
      const b = await member('Ben');
      const c = await member('Cat');
      const d = await member('Dan');
      const quiet = await createRoom(a, b);
      const older = await createRoom(a, c);
      const newer = await createRoom(d, a);
      await createRoom(b, c); // not Ann's
      now += 1000;
      expect((await a.client.post(api.updateSubject, { chatRoomId: older, chatRoomName: 'Older' })).status).to.equal(200);
      now += 1000;
      expect((await a.client.post(api.updateSubject, { chatRoomId: newer, chatRoomName: 'Newer' })).status).to.equal(200);

      const res = await a.client.get<ChatSummary[]>(api.chats);
      expect(res.status).to.equal(200);
      expect(res.body.map((r) => r.chatRoomId)).to.deep.equal([newer, older, quiet]);
      const [first, , last] = res.body;
      expect(first).to.deep.equal({
        chatRoomId: newer,
        chatRoomName: 'Newer',
        lastMessage: '"Ann"님이 채팅 이름을 "Newer" (으)로 변경하였습니다',
        lastMessageTime: new Date(now).toISOString(),
        // Ann renamed it herself: an author has read the room up to their own message.
        lastReadAt: new Date(now).toISOString(),
        unreadCount: 0,
        lastSeq: 1,
        memberCount: 2,
        peer: { userId: d.user.userId, photoVersion: null },
      });
      expect(last).to.deep.equal({
        chatRoomId: quiet, chatRoomName: 'Ben', lastMessage: null, lastMessageTime: null, lastReadAt: null, unreadCount: 0, lastSeq: 0, memberCount: 2,
        peer: { userId: b.user.userId, photoVersion: null },
      });
    });

    it('shows a room as read after its history was loaded', async () => {
      const a = await member('Reader');
      const b = await member('Writer');
      const roomId = await createRoom(a, b);
      await b.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: 'News' });
      const before = (await a.client.get<ChatSummary[]>(api.chats)).body[0];
      expect(before.lastReadAt).to.equal(null);
      now += 5000;
      await history(a, roomId, '&page=0');
      const after = (await a.client.get<ChatSummary[]>(api.chats)).body[0];
      expect(after.lastReadAt).to.equal(new Date(now).toISOString());
      expect(Date.parse(after.lastReadAt!)).to.be.at.least(Date.parse(after.lastMessageTime!));
    });
  });

  describe('GET /api/chat-room/chat-history', () => {
    let a: Member;
    let b: Member;
    let roomId: number;
    let ids: number[];
    before(async () => {
      a = await member('Pager');
      b = await member('Paged');
      roomId = await createRoom(a, b);
      const rows = Array.from({ length: 45 }, (_, k) => ({
        roomId, senderId: (k + 1) % 2 ? a.user.userId : b.user.userId, content: `m${k + 1}`, clientMsgId: null,
        leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: now + k + 1,
      }));
      ids = (await new MessagesRepository(server.db).insertMany(rows)).map((m) => m.id);
    });

    it('answers page 0 with the newest 20 in ascending order, and the older pages after it', async () => {
      const p0 = await history(a, roomId, '&page=0');
      expect(p0.status).to.equal(200);
      expect(p0.body.totalPages).to.equal(3);
      expect(p0.body.messages.map((m) => m.content)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `m${26 + i}`));
      const m = p0.body.messages[0];
      expect(m).to.deep.include({ messageId: ids[25], senderId: b.user.userId, senderName: 'Paged', content: 'm26', enrolledAt: new Date(now + 26).toISOString() });
      const p1 = await history(a, roomId, '&page=1');
      expect(p1.body.messages.map((x) => x.content)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `m${6 + i}`));
      const p2 = await history(a, roomId, '&page=2');
      expect(p2.body.messages.map((x) => x.content)).to.deep.equal(['m1', 'm2', 'm3', 'm4', 'm5']);
      expect((await history(a, roomId, '&page=3')).body.messages).to.deep.equal([]);
    });

    it('pages by beforeId without gaps or duplicates while new messages arrive', async () => {
      const repo = new MessagesRepository(server.db);
      const seen: number[] = [];
      let page = (await history(a, roomId)).body.messages;
      while (page.length > 0) {
        seen.unshift(...page.map((m) => m.messageId));
        await repo.insertMany([{ roomId, senderId: a.user.userId, content: 'late', clientMsgId: null, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: now }]);
        page = (await history(a, roomId, `&beforeId=${page[0].messageId}`)).body.messages;
      }
      expect(seen).to.deep.equal(ids);
    });

    it('answers the messages before an id that is not one of the room\'s by id, as for one that is', async () => {
      const other = await createRoom(b, await member('Elsewhere'));
      const [between] = await new MessagesRepository(server.db).insertMany([
        { roomId: other, senderId: b.user.userId, content: 'elsewhere', clientMsgId: null, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: now },
      ]);
      await new MessagesRepository(server.db).insertMany([
        { roomId, senderId: a.user.userId, content: 'after', clientMsgId: null, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: now },
      ]);
      const inRoom = ((await server.db('messages').where({ room_id: roomId }).orderBy('id').pluck('id')) as number[]).map(Number);
      const before = (await history(a, roomId, `&beforeId=${between.id}`)).body.messages.map((m) => m.messageId);
      expect(before).to.deep.equal(inRoom.filter((id) => id < between.id).slice(-20));
      expect((await history(a, roomId, `&beforeId=${ids[30]}`)).body.messages.map((m) => m.messageId)).to.deep.equal(ids.slice(10, 30));
    });

    it('refuses a non-member with 403 and a malformed request with 400', async () => {
      const stranger = await member('Stranger');
      expect((await history(stranger, roomId)).status).to.equal(403);
      expect((await history(stranger, 987654)).status).to.equal(403);
      expect((await a.client.get(`${api.chatHistory}?chatRoomId=abc`)).status).to.equal(400);
      expect((await history(a, roomId, '&page=-1')).status).to.equal(400);
      expect((await history(a, roomId, '&beforeId=0')).status).to.equal(400);
    });
  });

  describe('POST /api/chat-room/update-subject', () => {
    it('renames the room for every member and records the exact system message', async () => {
      const a = await member('Renamer');
      const b = await member('Other');
      const roomId = await createRoom(a, b);
      const res = await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: '  새 이름  ' });
      expect(res.status).to.equal(200);
      const h = await history(b, roomId);
      expect(h.body.chatRoomName).to.equal('새 이름');
      expect(h.body.messages).to.have.length(1);
      expect(h.body.messages[0]).to.deep.include({
        senderId: null,
        senderName: '새 이름',
        content: '"Renamer"님이 채팅 이름을 "새 이름" (으)로 변경하였습니다',
        systemEvent: { type: 'renamed', actorUserId: a.user.userId, actorName: 'Renamer', newName: '새 이름' },
      });
    });

    it('refuses a blank or over-50-character name with 400 and a non-member with 403', async () => {
      const a = await member('Strict');
      const b = await member('Witness');
      const roomId = await createRoom(a, b);
      for (const chatRoomName of ['', '   ', 'x'.repeat(51), 5]) {
        expect((await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName })).status, String(chatRoomName)).to.equal(400);
      }
      for (const chatRoomName of ['a\u0000b', 'a\nb', '\u202Eevil', 'a\uDC00', '\u200F', 'a\u061Cb', 'a\u2028b', '\u3164', 'room\u3164']) {
        expect((await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName })).status, JSON.stringify(chatRoomName)).to.equal(400);
      }
      expect((await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: 'x'.repeat(50) })).status).to.equal(200);
      const stranger = await member('Intruder');
      expect((await stranger.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: 'mine' })).status).to.equal(403);
      expect((await history(a, roomId)).body.chatRoomName).to.equal('x'.repeat(50));
    });
  });

  describe('invitations', () => {
    it('searches users for the room with the ids of its members', async () => {
      const a = await member('Host Person');
      const b = await member('Guest Person');
      const c = await member('Outsider Person');
      const roomId = await createRoom(a, b);
      const res = await a.client.get(`${api.roomSearch}?keyword=${encodeURIComponent('person')}&chatRoomId=${roomId}`);
      expect(res.status).to.equal(200);
      expect(res.body.allUsers.map((u: UserSummary) => u.userId)).to.include.members([a.user.userId, b.user.userId, c.user.userId]);
      expect(res.body.chatRoomUsers).to.deep.equal([a.user.userId, b.user.userId]);
      const empty = await a.client.get(`${api.roomSearch}?keyword=%25&chatRoomId=${roomId}`);
      expect(empty.body.allUsers).to.deep.equal([]);
      expect((await c.client.get(`${api.roomSearch}?keyword=person&chatRoomId=${roomId}`)).status).to.equal(403);
      expect((await a.client.get(`${api.roomSearch}?keyword=${'p'.repeat(256)}&chatRoomId=${roomId}`)).status).to.equal(400);
    });

    it('adds a user, who then sees the room, with the exact system message', async () => {
      const a = await member('Inviter');
      const b = await member('Second');
      const c = await member('Invitee', `invitee-${Date.now()}@example.test`);
      const roomId = await createRoom(a, b);
      const res = await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId });
      expect(res.status).to.equal(200);
      const list = await c.client.get<ChatSummary[]>(api.chats);
      expect(list.body.map((r) => r.chatRoomId)).to.deep.equal([roomId]);
      const h = await history(c, roomId);
      expect(h.body.users.map((u) => u.userId)).to.deep.equal([a.user.userId, b.user.userId, c.user.userId]);
      expect(h.body.messages.at(-1)).to.deep.include({
        senderId: null,
        senderName: 'Inviter, Second',
        content: '"Inviter" 님이 "Invitee" 님을 추가했습니다',
        addedUserEmail: c.user.email,
        systemEvent: { type: 'added', actorUserId: a.user.userId, actorName: 'Inviter', targetUserId: c.user.userId, targetName: 'Invitee' },
      });
    });

    it('refuses an existing member or unknown user with 400 and a non-member inviter with 403', async () => {
      const a = await member('Gate');
      const b = await member('Keeper');
      const c = await member('Crasher');
      const roomId = await createRoom(a, b);
      expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: b.user.userId })).status).to.equal(400);
      expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: 99_999_999 })).status).to.equal(400);
      expect((await a.client.post(api.addUser, { chatRoomId: roomId })).status).to.equal(400);
      expect((await c.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId })).status).to.equal(403);
      expect((await history(c, roomId)).status).to.equal(403);
    });
  });

  describe('DELETE /api/chat-room-user/leave-chat', () => {
    it('removes the caller and tells the others with the exact system message', async () => {
      const a = await member('Stayer');
      const b = await member('Leaver');
      const roomId = await createRoom(a, b);
      expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
      expect((await b.client.get(api.chats)).body).to.deep.equal([]);
      expect((await history(b, roomId)).status).to.equal(403);
      const h = await history(a, roomId);
      expect(h.body.users.map((u) => u.userId)).to.deep.equal([a.user.userId]);
      expect(h.body.messages.at(-1)).to.deep.include({
        senderId: null,
        senderName: 'Stayer, Leaver',
        content: '"Leaver"님이 채팅에서 나갔습니다',
        leftUserId: b.user.userId,
        systemEvent: { type: 'left', actorUserId: b.user.userId, actorName: 'Leaver' },
      });
    });

    it('deletes the room with its messages when the last member leaves', async () => {
      const a = await member('First Out');
      const b = await member('Last Out');
      const roomId = await createRoom(a, b);
      await a.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`);
      await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`);
      expect(await server.db('rooms').where({ id: roomId }).first()).to.equal(undefined);
      expect(await server.db('messages').where({ room_id: roomId })).to.deep.equal([]);
    });

    it('deletes the room with its messages when its last two members leave at the same moment', async () => {
      // Several rooms at once, so the two leaves of a room really overlap on the database.
      const rooms = await Promise.all(['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay'].map(async (name) => {
        const a = await member(`${name} One`);
        const b = await member(`${name} Two`);
        const roomId = await createRoom(a, b);
        // A system message, so the room has messages to lose.
        await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: `${name} doomed` });
        return { a, b, roomId };
      }));
      const leaves = await Promise.all(rooms.flatMap(({ a, b, roomId }) =>
        [a, b].map((m) => m.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`))));
      expect(leaves.map((r) => r.status)).to.deep.equal(leaves.map(() => 200));
      const roomIds = rooms.map((r) => r.roomId);
      expect(await server.db('rooms').whereIn('id', roomIds)).to.deep.equal([]);
      expect(await server.db('messages').whereIn('room_id', roomIds)).to.deep.equal([]);
    });

    it('refuses a non-member with 403 and a missing id with 400', async () => {
      const a = await member('Owner');
      const b = await member('Peer');
      const c = await member('Nobody');
      const roomId = await createRoom(a, b);
      expect((await c.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(403);
      expect((await c.client.delete(api.leaveChat)).status).to.equal(400);
      expect((await history(a, roomId)).body.users).to.have.length(2);
    });
  });

  describe('POST /api/email/notification/send', () => {
    it('mails each other member alone with the room name and link, then answers 429 for 3 minutes', async () => {
      const a = await member('Notifier');
      const b = await member('Mailed One');
      const c = await member('Mailed Two');
      const roomId = await createRoom(a, b);
      await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId });
      const since = smtp.mails.length;
      const res = await a.client.post(api.notificationSend, { chatRoomId: roomId });
      expect(res.status, res.text).to.equal(200);
      const link = `${server.config.publicUrl}/chat-room?cri=${roomId}`;
      for (const who of [b, c]) {
        const mail = await smtp.waitFor(who.user.email, 10_000, since);
        expect(mail.to).to.deep.equal([who.user.email]);
        expect(mail.text).to.include('Notifier, Mailed One').and.to.include(link);
      }
      const sent = smtp.mails.slice(since);
      expect(sent.flatMap((m) => m.to)).to.not.include(a.user.email);

      now += 60_000;
      const again = await b.client.post(api.notificationSend, { chatRoomId: roomId });
      expect(again.status).to.equal(429);
      expect(again.headers.get('retry-after')).to.equal('120');
      now += 120_000;
      expect((await b.client.post(api.notificationSend, { chatRoomId: roomId })).status).to.equal(200);
    });

    it('answers 502 when the mail server refuses, and the room still works', async () => {
      const a = await member('Unlucky');
      const b = await member('Unreached');
      const roomId = await createRoom(a, b);
      smtp.failWith = '554 no thanks';
      try {
        expect((await a.client.post(api.notificationSend, { chatRoomId: roomId })).status).to.equal(502);
      } finally {
        smtp.failWith = null;
      }
      expect((await history(b, roomId)).status).to.equal(200);
      // The failed attempt does not use up the 3 minutes.
      expect((await a.client.post(api.notificationSend, { chatRoomId: roomId })).status).to.equal(200);
    });

    it('keeps the 3 minutes after a partial failure, so the members already mailed are not mailed twice', async () => {
      const a = await member('Sender');
      const b = await member('Reached');
      const c = await member('Bounced');
      const roomId = await createRoom(a, b);
      expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId })).status).to.equal(200);
      const since = smtp.mails.length;
      smtp.refuse.add(c.user.email.toLowerCase());
      try {
        expect((await a.client.post(api.notificationSend, { chatRoomId: roomId })).status).to.equal(502);
      } finally {
        smtp.refuse.clear();
      }
      await smtp.waitFor(b.user.email, 10_000, since);
      expect((await a.client.post(api.notificationSend, { chatRoomId: roomId })).status).to.equal(429);
      const toB = smtp.mails.slice(since).filter((m) => m.to.includes(b.user.email.toLowerCase()));
      expect(toB).to.have.length(1);
    });

    it('refuses a non-member with 403 and a malformed body with 400', async () => {
      const a = await member('Room Owner');
      const b = await member('Room Peer');
      const c = await member('Not Inside');
      const roomId = await createRoom(a, b);
      expect((await c.client.post(api.notificationSend, { chatRoomId: roomId })).status).to.equal(403);
      expect((await c.client.post(api.notificationSend, { chatRoomId: 'x' })).status).to.equal(400);
    });
  });
});
