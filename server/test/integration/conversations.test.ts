import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient }

forEachDatabase('rooms that read as conversations', (db) => {
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

  const member = (name: string): Promise<Member> => newLoggedInUser(server, { name });
  const create = async (a: Member, b: Member): Promise<number> => {
    const res = await a.client.post(api.roomCreate, { targetUserId: b.user.userId });
    expect(res.status, res.text).to.equal(200);
    return res.body.chatRoomId as number;
  };
  const nameFor = async (m: Member, roomId: number) => (await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body.chatRoomName;
  const listed = async (m: Member, roomId: number) => (await m.client.get<ChatSummary[]>(api.chats)).body.find((r) => r.chatRoomId === roomId);

  it('opens the two-person room the two already share instead of making another, until it is renamed or grows', async () => {
    const a = await member('Kim');
    const b = await member('Lee');
    const c = await member('Park');
    const first = await create(a, b);
    expect(await create(a, b)).to.equal(first);
    expect(await create(b, a)).to.equal(first);
    expect(await server.db('rooms').whereIn('id', [first]).count({ n: '*' }).first()).to.deep.include({ n: 1 });

    await a.client.post(api.updateSubject, { chatRoomId: first, chatRoomName: '우리 방' });
    const second = await create(a, b);
    expect(second).to.not.equal(first);
    await a.client.post(api.addUser, { chatRoomId: second, userId: c.user.userId });
    const third = await create(b, a);
    expect([first, second]).to.not.include(third);
  });

  it('names an unrenamed room from the viewer\'s side: the other person, or up to three names and 외 N명, and keeps a renamed one', async () => {
    const [a, b, c, d, e] = [await member('Ann'), await member('Ben'), await member('Cat'), await member('Dan'), await member('Eve')];
    const roomId = await create(a, b);
    expect(await nameFor(a, roomId)).to.equal('Ben');
    expect((await listed(b, roomId))!.chatRoomName).to.equal('Ann');
    for (const m of [c, d]) await a.client.post(api.addUser, { chatRoomId: roomId, userId: m.user.userId });
    expect(await nameFor(a, roomId)).to.equal('Ben, Cat, Dan');
    await a.client.post(api.addUser, { chatRoomId: roomId, userId: e.user.userId });
    expect(await nameFor(a, roomId)).to.equal('Ben, Cat, Dan 외 1명');
    expect((await listed(e, roomId))).to.deep.include({ chatRoomName: 'Ann, Ben, Cat 외 1명', memberCount: 5 });

    await b.client.post(api.updateSubject, { chatRoomId: roomId, chatRoomName: '다섯 명' });
    for (const m of [a, b, e]) expect(await nameFor(m, roomId)).to.equal('다섯 명');
    expect((await listed(c, roomId))!.chatRoomName).to.equal('다섯 명');
  });

  it('refreshes only the creator\'s list when a room is made: the other member hears of it with its first message', async () => {
    const a = await member('Starter');
    const b = await member('Invitee');
    const bStomp = await connectStomp(server, b.client.cookieHeader());
    open.push(bStomp);
    const aStomp = await connectStomp(server, a.client.cookieHeader());
    open.push(aStomp);
    const bRefresh = await bStomp.subscribe(topics.toggleRefresh(b.user.userId));
    const aRefresh = await aStomp.subscribe(topics.toggleRefresh(a.user.userId));
    const roomId = await create(a, b);
    expect((await aRefresh.next()).json()).to.equal(true);
    await bRefresh.nothingSoFar(); // a refresh would have been sent before the creation's answer
    await aStomp.send(app.privateMessage, { chatRoomId: roomId, content: '안녕' });
    expect((await bRefresh.next()).json()).to.equal(true);
  });

  it('starts a newly added member\'s read position at the newest message: what came before is not theirs to read', async () => {
    const a = await member('Host');
    const b = await member('Guest');
    const c = await member('Late');
    const roomId = await create(a, b);
    const aStomp = await connectStomp(server, a.client.cookieHeader());
    open.push(aStomp);
    for (const text of ['one', 'two']) await aStomp.send(app.privateMessage, { chatRoomId: roomId, content: text });
    await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId });
    const users = (await a.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&afterSeq=99`)).body.users;
    expect(users.find((u) => u.userId === c.user.userId)!.lastReadSeq).to.equal(2);
    // The invitation (seq 3) is the one message waiting for them.
    expect((await listed(c, roomId))!.unreadCount).to.equal(1);
  });
});
