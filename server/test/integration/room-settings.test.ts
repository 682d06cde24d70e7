// A member's own room settings (docs/protocol.md, PATCH /api/chat-room/settings): muted and
// pinned, per member, on both databases; the chat list puts pinned rooms first and carries the
// fields only when set, so the original client's rows keep their shape.
import { expect } from 'chai';
import { api, type ChatSummary } from '@common/api';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient }

forEachDatabase('per-room settings of a member', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 26, 9, 0, 0);
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock: () => now });
  });
  after(async () => {
    await server?.stop();
  });

  const member = (name: string): Promise<Member> => newLoggedInUser(server, { name });
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const rename = async (a: Member, roomId: number, name: string) => {
    now += 1000;
    expect((await a.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: name })).status).to.equal(200);
  };
  const list = async (m: Member) => (await m.client.get<ChatSummary[]>(api.chats)).body;

  it('pins rooms first (newest activity first among them), per member, and unpinning puts a room back in its place', async () => {
    const ann = await member('Ann');
    const ben = await member('Ben');
    const cat = await member('Cat');
    const dan = await member('Dan');
    const old = await roomOf(ann, ben);
    const mid = await roomOf(ann, cat);
    const fresh = await roomOf(ann, dan);
    await rename(ann, old, 'Old');
    await rename(ann, mid, 'Mid');
    await rename(ann, fresh, 'Fresh');
    expect((await list(ann)).map((r) => r.chatRoomId)).to.deep.equal([fresh, mid, old]);

    const res = await ann.client.patch(api.roomSettings, { chatRoomId: old, pinned: true });
    expect([res.status, res.body]).to.deep.equal([200, { chatRoomId: old, muted: false, pinned: true }]);
    expect((await ann.client.patch(api.roomSettings, { chatRoomId: mid, pinned: true })).status).to.equal(200);
    const rows = await list(ann);
    expect(rows.map((r) => r.chatRoomId)).to.deep.equal([mid, old, fresh]);
    expect(rows.map((r) => r.pinned)).to.deep.equal([true, true, undefined]);
    // Ben's list is his own: the room is not pinned for him.
    expect((await list(ben)).find((r) => r.chatRoomId === old)).to.not.have.property('pinned');

    expect((await ann.client.patch(api.roomSettings, { chatRoomId: mid, pinned: false })).body).to.deep.equal({ chatRoomId: mid, muted: false, pinned: false });
    expect((await list(ann)).map((r) => r.chatRoomId)).to.deep.equal([old, fresh, mid]);
  });

  it('mutes a room for that member only; the row says muted and still counts unread; a change of one setting keeps the other', async () => {
    const eve = await member('Eve');
    const fay = await member('Fay');
    const room = await roomOf(eve, fay);
    expect((await eve.client.patch(api.roomSettings, { chatRoomId: room, muted: true, pinned: true })).body).to.deep.equal({ chatRoomId: room, muted: true, pinned: true });
    expect((await eve.client.patch(api.roomSettings, { chatRoomId: room, pinned: false })).body).to.deep.equal({ chatRoomId: room, muted: true, pinned: false });
    await rename(fay, room, 'Noisy');
    const [row] = await list(eve);
    expect(row).to.deep.include({ chatRoomId: room, muted: true, unreadCount: 1 });
    expect(row).to.not.have.property('pinned');
    expect((await list(fay))[0]).to.not.have.property('muted');
  });

  it('refuses a non-member with 403, a malformed body with 400, and no session with 401, changing nothing', async () => {
    const gus = await member('Gus');
    const hal = await member('Hal');
    const outsider = await member('Ivy');
    const room = await roomOf(gus, hal);
    const refused = await outsider.client.patch(api.roomSettings, { chatRoomId: room, muted: true });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.have.keys('error', 'message');
    expect((await outsider.client.patch(api.roomSettings, { chatRoomId: 999999999, pinned: true })).status).to.equal(403);
    for (const body of [{ chatRoomId: room }, { chatRoomId: room, muted: 'yes' }, { chatRoomId: room, pinned: 1 }, { muted: true }, { chatRoomId: 'x', muted: true }, [room]]) {
      const res = await gus.client.patch(api.roomSettings, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.have.keys('error', 'message');
    }
    const anonymous = await fetch(server.url + api.roomSettings, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatRoomId: room, muted: true }) });
    expect(anonymous.status).to.equal(401);
    const [row] = await list(gus);
    expect(row).to.not.have.any.keys('muted', 'pinned');
  });
});
