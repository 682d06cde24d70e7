import { expect } from 'chai';
import { api } from '@common/api';
import type { RunningServer } from '../../src/main';
import { forEachDatabase } from '../support/databases';
import { connectStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { createUser, loginClient, newLoggedInUser } from '../support/users';
import { within } from '../support/wait';

/** Resolves with the close code, or rejects if the socket stays open. */
function closedWithin<T>(closed: Promise<T>, ms: number): Promise<T> {
  return within(closed, ms, 'the server to close the socket');
}

forEachDatabase('sessions and their WebSockets', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await server?.stop();
  });

  it('closes the WebSockets of a session when it logs out, and leaves the user’s other sessions connected', async () => {
    const { user, client } = await newLoggedInUser(server);
    const other = await loginClient(server, user);
    const mine = await connectStomp(server, client.cookieHeader());
    const theirs = await connectStomp(server, other.cookieHeader());
    expect((await client.post(api.logout)).status).to.equal(200);
    await closedWithin(mine.closed, 10_000);
    // The other browser's socket still works: a subscription is confirmed by the server.
    await theirs.subscribe(`/topic/toggle-refresh/${user.userId}`);
    await theirs.disconnect();
  });

  it('refuses a WebSocket opened with a logged-out cookie', async () => {
    const { client } = await newLoggedInUser(server);
    const cookie = client.cookieHeader();
    await client.post(api.logout);
    let refused = false;
    await connectStomp(server, cookie).then(
      (s) => s.disconnect(),
      () => {
        refused = true;
      },
    );
    expect(refused).to.equal(true);
  });

  it('closes the WebSockets of the previous session when the same browser logs in again', async () => {
    const user = await createUser(server);
    const client = await loginClient(server, user);
    const old = await connectStomp(server, client.cookieHeader());
    expect((await client.post(api.login, { email: user.email, password: user.password })).status).to.equal(200);
    await closedWithin(old.closed, 10_000);
  });
});
