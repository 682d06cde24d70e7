// A database outage (MariaDB behind a TCP proxy the test cuts): a send is refused with a
// retryable ERROR (close code 1013), never acknowledged; the client reconnects and sends again
// with the same clientMsgId once the database is back, and the message is stored exactly once.
import { expect } from 'chai';
import { api, type ChatHistoryResponse } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import { createMysqlDatabase, TcpProxy } from '../support/cluster';
import { connectStomp, StompErrorFrame } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser } from '../support/users';
import { waitFor } from '../support/wait';

describe('a database outage (MariaDB)', function () {
  let database: { url: string; drop(): Promise<void> } | null = null;
  let proxy: TcpProxy | null = null;
  let server: RunningServer | null = null;

  before(async function () {
    database = await createMysqlDatabase(this);
    const direct = new URL(database.url);
    proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 3306) });
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    server = await startTestServer({ databaseUrl: viaProxy.toString() });
  });
  after(async () => {
    await proxy?.restore().catch(() => {});
    await server?.stop();
    await database?.drop();
  });

  it('refuses a send with a retryable error while the database is away, and stores the resent message once after', async () => {
    const { user: a, client: ca } = await newLoggedInUser(server!, { name: '에이' });
    const { user: b, client: cb } = await newLoggedInUser(server!, { name: '비' });
    const roomId = (await ca.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const reader = await connectStomp(server!, cb.cookieHeader());
    const inbox = await reader.subscribe(topics.privateChat(roomId));
    const message = { chatRoomId: roomId, senderId: a.userId, content: '장애 중', clientMsgId: 'outage-1' };

    const sender = await connectStomp(server!, ca.cookieHeader());
    await proxy!.cut();
    let refusal: StompErrorFrame | null = null;
    await sender.send(app.privateMessage, message).catch((err: unknown) => (refusal = err as StompErrorFrame));
    expect(refusal).to.be.instanceOf(StompErrorFrame);
    expect(refusal!.frame.headers).to.include({ retryable: 'true' });
    expect(refusal!.frame.headers.message).to.match(/database is unavailable/);
    expect(await sender.closed).to.equal(1013);
    const health = await fetch(`${server!.url}${api.healthz}`);
    expect(health.status).to.equal(503);

    await proxy!.restore();
    // The client comes back and sends the same message again until it is acknowledged (a retry
    // every 200 ms, as a client would pace it).
    await waitFor(async () => {
      const again = await connectStomp(server!, ca.cookieHeader());
      const sent = await again.send(app.privateMessage, message).then(() => true, () => false);
      await again.disconnect().catch(() => {});
      return sent;
    }, { what: 'the message acknowledged once the database is back', everyMs: 200 });
    expect((await inbox.next()).json<ChatMessageEvent>().content).to.equal('장애 중');
    // Delivered once: the room's next message comes right after it, stored and published in order.
    const marker = await connectStomp(server!, ca.cookieHeader());
    await marker.send(app.privateMessage, { chatRoomId: roomId, content: '다음 글', clientMsgId: 'outage-2' });
    await marker.disconnect();
    expect((await inbox.next()).json<ChatMessageEvent>().content).to.equal('다음 글');
    const history = (await ca.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    expect(history.messages.filter((m) => m.content === '장애 중')).to.have.length(1);
    await reader.disconnect();
  });
});
