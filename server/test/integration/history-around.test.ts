import { expect } from 'chai';
import { api, type ChatHistoryResponse } from '@common/api';
import { app } from '@common/destinations';
import type { RunningServer } from '../../src/main';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser } from '../support/users';

forEachDatabase('history around a seq (a search result or a quote opened in its place)', (db) => {
  let server: RunningServer;
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
    await server?.stop();
  });

  it('answers the 20 messages about the seq, oldest first, says whether newer ones follow and marks nothing read', async () => {
    const a = await newLoggedInUser(server, { name: 'Writer' });
    const b = await newLoggedInUser(server, { name: 'Searcher' });
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    const stomp = await connectStomp(server, a.client.cookieHeader());
    open.push(stomp);
    for (let i = 1; i <= 45; i += 1) await stomp.send(app.privateMessage, { chatRoomId: roomId, content: `message ${i}` });
    const around = async (query: string) => (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&${query}`));

    const middle = (await around('aroundSeq=20')).body;
    expect(middle.messages.map((m) => m.seq)).to.deep.equal(Array.from({ length: 20 }, (_, i) => 10 + i));
    expect(middle.messages.find((m) => m.seq === 20)?.content).to.equal('message 20');
    expect(middle.hasMore).to.equal(true);
    expect(middle.totalPages).to.equal(3);
    expect(middle.users.find((u) => u.userId === b.user.userId)?.lastReadSeq).to.equal(0);

    const start = (await around('aroundSeq=3')).body;
    expect(start.messages.map((m) => m.seq)).to.deep.equal(Array.from({ length: 12 }, (_, i) => 1 + i));
    const end = (await around('aroundSeq=44')).body;
    expect(end.messages.map((m) => m.seq)).to.deep.equal(Array.from({ length: 12 }, (_, i) => 34 + i));
    expect(end.hasMore).to.equal(false);

    // Nothing of it moved B's read position: the chat list still counts all 45 unread.
    const chats = (await b.client.get<Array<{ chatRoomId: number; unreadCount?: number }>>(api.chats)).body;
    expect(chats.find((c) => c.chatRoomId === roomId)?.unreadCount).to.equal(45);
  });

  it('refuses a malformed aroundSeq, one given with another position, and outsiders', async () => {
    const a = await newLoggedInUser(server, { name: 'Owner' });
    const b = await newLoggedInUser(server, { name: 'Other' });
    const outsider = await newLoggedInUser(server, { name: 'Outsider' });
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    const status = async (client: typeof a.client, query: string) => (await client.get(`${api.chatHistory}?chatRoomId=${roomId}&${query}`)).status;
    expect(await status(a.client, 'aroundSeq=0')).to.equal(400);
    expect(await status(a.client, 'aroundSeq=x')).to.equal(400);
    expect(await status(a.client, 'aroundSeq=5&afterSeq=1')).to.equal(400);
    expect(await status(outsider.client, 'aroundSeq=1')).to.equal(403);
    expect(await status(a.client, 'aroundSeq=1')).to.equal(200);
  });
});
