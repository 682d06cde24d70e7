// GET /metrics: Prometheus text for the operator holding METRICS_TOKEN, nothing for anyone else.
import { expect } from 'chai';
import { api } from '@common/api';
import { app, topics } from '@common/destinations';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser } from '../support/users';

const TOKEN = 'scrape-me';

/** The value of a sample line `name{labels} value` (the first that matches), or null. */
function sample(text: string, name: string, labels = ''): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.split(' ').at(-1)) : null;
}

forEachDatabase('GET /metrics', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), env: { METRICS_TOKEN: TOKEN } });
  });
  after(async () => {
    await server?.stop();
  });

  const scrape = (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });

  it('answers 401 without the bearer token or with a wrong one', async () => {
    expect((await scrape()).status).to.equal(401);
    expect((await scrape('Bearer nope')).status).to.equal(401);
    expect((await scrape(TOKEN)).status).to.equal(401);
  });

  it('counts what the server did: HTTP requests by route and status, STOMP frames, deliveries, stored messages, pool and event loop', async () => {
    const { user, client } = await newLoggedInUser(server, { name: 'Metered' });
    const { user: other, client: otherClient } = await newLoggedInUser(server, { name: 'Other' });
    const created = await client.post<{ chatRoomId: number }>(api.roomCreate, { targetUserId: other.userId });
    const stomp = await connectStomp(server, client.cookieHeader());
    const listener = await connectStomp(server, otherClient.cookieHeader());
    const inbox = await listener.subscribe(topics.privateChat(created.body.chatRoomId));
    await stomp.send(app.privateMessage, { chatRoomId: created.body.chatRoomId, senderId: user.userId, content: 'counted' });
    await inbox.next();

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    const text = await res.text();
    expect(sample(text, 'letschat_http_request_duration_seconds_count', '{method="POST",route="/api/chat-room/create",status="200"}')).to.equal(1);
    expect(sample(text, 'letschat_websocket_connections')).to.equal(2);
    expect(sample(text, 'letschat_stomp_sessions')).to.equal(2);
    expect(sample(text, 'letschat_stomp_frames_received_total')).to.be.at.least(4);
    expect(sample(text, 'letschat_stomp_frames_sent_total')).to.be.at.least(4);
    expect(sample(text, 'letschat_messages_stored_total')).to.equal(1);
    expect(sample(text, 'letschat_deliveries_total')).to.be.at.least(1);
    expect(sample(text, 'letschat_db_query_duration_seconds_count', '{pool="main"}')).to.be.greaterThan(0);
    // The message's transaction: its own pool's round trips on MariaDB, Knex's statements on SQLite.
    if (db.kind === 'mysql') expect(sample(text, 'letschat_db_query_duration_seconds_count', '{pool="writer"}')).to.be.at.least(2);
    else expect(sample(text, 'letschat_db_query_duration_seconds_count', '{pool="writer"}')).to.equal(null);
    expect(text).to.include('letschat_db_pool_used');
    expect(text).to.include('nodejs_eventloop_lag_seconds');
    await stomp.disconnect();
    await listener.disconnect();
  });

  it('counts calls by outcome', async () => {
    const { user: caller, client } = await newLoggedInUser(server, { name: 'Caller' });
    const stomp = await connectStomp(server, client.cookieHeader());
    await stomp.send(app.callInitiate, { targetUserId: 999_999, userId: caller.userId });
    const text = await (await scrape(`Bearer ${TOKEN}`)).text();
    expect(sample(text, 'letschat_calls_total', '{outcome="unavailable"}')).to.equal(1);
    await stomp.disconnect();
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist: 404', async () => {
    const server = await startTestServer({ databaseUrl: 'sqlite::memory:' });
    try {
      expect((await new ApiClient(server.url).get('/metrics')).status).to.equal(404);
    } finally {
      await server.stop();
    }
  });
});
