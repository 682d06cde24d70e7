// Web Push end to end without the internet: a local HTTP server plays the browsers' push
// service; subscriptions carry keys the test made, so it decrypts (aes128gcm) what the server
// pushes and checks the VAPID Authorization header. Calls ring an offline callee by push,
// offline members hear of new messages (at most once per room a minute), and endpoints the push
// service calls gone, or deleted, or of a logged-out session, are rung no more.
import { expect } from 'chai';
import { api } from '@common/api';
import { app, queues } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import type { PushPayload } from '@common/push';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { LocalPushService, verifyVapid, type TestSubscription } from '../support/push-service';
import { connectStomp, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { loginClient, newLoggedInUser, type TestUser } from '../support/users';
import { metricValue } from '../support/metrics';
import { expectNothingFor, waitFor } from '../support/wait';

const RING_TIMEOUT_MS = 5000;
/** How long a "nothing arrives" check listens, where no later event can stand as a barrier. */
const QUIET_MS = 500;
const METRICS_TOKEN = 'push-metrics';

interface Person {
  user: TestUser;
  client: ApiClient;
}

forEachDatabase('web push', (db) => {
  let server: RunningServer;
  const pushService = new LocalPushService();
  const open: TestStomp[] = [];

  before(async () => {
    await pushService.start();
    server = await startTestServer({ databaseUrl: db.url(), env: { CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS), VAPID_SUBJECT: 'mailto:ops@example.test', METRICS_TOKEN } });
  });
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((s) => s.disconnect()));
  });
  after(async () => {
    await server?.stop();
    await pushService.stop();
  });

  const person = (name: string): Promise<Person> => newLoggedInUser(server, { name });
  const connect = async (p: Person): Promise<TestStomp> => {
    const stomp = await connectStomp(server, p.client.cookieHeader());
    open.push(stomp);
    return stomp;
  };
  const subscribed = async (p: Person): Promise<TestSubscription> => {
    const subscription = pushService.subscription();
    const res = await p.client.post(api.pushSubscriptions, subscription.request);
    expect(res.status, res.text).to.equal(201);
    return subscription;
  };
  /** The caller's hang-up inbox, after initiating a call to the callee. */
  const call = async (caller: Person, callee: Person): Promise<{ stomp: TestStomp; hangups: Inbox }> => {
    const stomp = await connect(caller);
    const hangups = await stomp.subscribe(queues.call('hangup', caller.user.userId));
    await stomp.send(app.callInitiate, { targetUserId: callee.user.userId, userId: caller.user.userId });
    return { stomp, hangups };
  };
  const payloadOf = (subscription: TestSubscription, push: Parameters<TestSubscription['open']>[0]) => JSON.parse(subscription.open(push)) as PushPayload;

  it('hands out one VAPID public key, the same on every ask', async () => {
    const first = await (await person('Key')).client.get<{ publicKey: string }>(api.pushPublicKey);
    expect(first.status).to.equal(200);
    expect(first.body.publicKey).to.match(/^[A-Za-z0-9_-]{87}$/);
    const again = await (await person('Key again')).client.get<{ publicKey: string }>(api.pushPublicKey);
    expect(again.body.publicKey).to.equal(first.body.publicKey);
  });

  it('refuses a malformed subscription with 400 and an anonymous one with 401', async () => {
    const { client } = await person('Bad');
    const good = pushService.subscription().request;
    const bad: unknown[] = [
      {},
      { endpoint: good.endpoint },
      { endpoint: 'not a url', keys: good.keys },
      { endpoint: 'ftp://127.0.0.1/push/x', keys: good.keys },
      { endpoint: good.endpoint, keys: { p256dh: 'short', auth: good.keys.auth } },
      { endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh, auth: 'AAAA' } },
      { endpoint: `${pushService.url}/${'x'.repeat(3000)}`, keys: good.keys },
    ];
    for (const body of bad) {
      const res = await client.post(api.pushSubscriptions, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
    }
    const anonymous = await fetch(server.url + api.pushSubscriptions, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(good) });
    expect(anonymous.status).to.equal(401);
  });

  it('rings a callee with no open connection by push, signed with VAPID, and keeps the call ringing', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const subscription = await subscribed(bob);
    const { stomp, hangups } = await call(alice, bob);

    const push = await pushService.nthPushTo(subscription, 1);
    expect(payloadOf(subscription, push)).to.deep.equal({ kind: 'incoming-call', callerId: alice.user.userId, callerName: 'Alice' });
    expect(push.headers['content-encoding']).to.equal('aes128gcm');
    expect(push.headers.urgency).to.equal('high');
    expect(Number(push.headers.ttl)).to.be.greaterThan(0);
    const { publicKey, claims } = verifyVapid(push);
    expect(publicKey).to.equal((await alice.client.get<{ publicKey: string }>(api.pushPublicKey)).body.publicKey);
    expect(claims.aud).to.equal(pushService.url);
    expect(claims.sub).to.equal('mailto:ops@example.test');
    expect(claims.exp * 1000).to.be.greaterThan(Date.now());
    // Ringing, not 'unavailable': that hang-up is sent before the RECEIPT of the initiate.
    expect(hangups.drain()).to.deep.equal([]);

    // Bob opens the app from the notification: the reloaded page is rung and can answer.
    const bobTab = await connect(bob);
    const incoming = await bobTab.subscribe(queues.call('incoming', bob.user.userId));
    expect((await incoming.next()).json<CallEvent>()).to.deep.include({ userId: alice.user.userId, name: 'Alice', media: 'audio' });
    await stomp.send(app.callHangup, { targetUserId: bob.user.userId });
  });

  it('answers unavailable at once for a callee with neither a connection nor a subscription', async () => {
    const { hangups } = await call(await person('Caller'), await person('Nobody'));
    expect((await hangups.next()).json<CallEvent>().reason).to.equal('unavailable');
  });

  it('tells an offline member of a new message, shortened to 100 characters, at most once per room a minute', async () => {
    const alice = await person('Writer');
    const bob = await person('Offline reader');
    const carol = await person('Online reader');
    const subscription = await subscribed(bob);
    const carolSubscription = await subscribed(carol);
    const room = (await alice.client.post<{ chatRoomId: number }>(api.roomCreate, { targetUserId: bob.user.userId })).body.chatRoomId;
    expect((await alice.client.post(api.addUser, { chatRoomId: room, userId: carol.user.userId })).status).to.equal(200);
    await connect(carol);
    const writer = await connect(alice);

    const long = '가'.repeat(150);
    await writer.send(app.privateMessage, { chatRoomId: room, content: long, clientMsgId: 'push-1' });
    const push = await pushService.nthPushTo(subscription, 1);
    const payload = payloadOf(subscription, push);
    expect(payload).to.include({ kind: 'message', chatRoomId: room, senderName: 'Writer' });
    expect(payload.kind === 'message' && Array.from(payload.content)).to.have.length(100);
    expect(payload.kind === 'message' && payload.content.startsWith('가'.repeat(99))).to.equal(true);

    const coalesced = () => metricValue(server, METRICS_TOKEN, 'letschat_pushes_total', 'outcome="coalesced"');
    const coalescedBefore = await coalesced();
    await writer.send(app.privateMessage, { chatRoomId: room, content: 'second', clientMsgId: 'push-2' });
    await waitFor(async () => (await coalesced()) > coalescedBefore, 'the push of the second message to Bob counted as coalesced');
    expect(pushService.pushesTo(subscription)).to.have.length(1);
    // Carol is connected: no push is started for her, and nothing marks that no push starts.
    await expectNothingFor(QUIET_MS, 'a push to Carol, who is connected', () => pushService.pushesTo(carolSubscription).length > 0);
  });

  it('deletes a subscription whose endpoint the push service calls gone (410)', async () => {
    const alice = await person('Ringer');
    const bob = await person('Gone');
    const subscription = await subscribed(bob);
    pushService.answer(subscription, 410);
    const first = await call(alice, bob);
    await pushService.nthPushTo(subscription, 1);
    await first.stomp.send(app.callHangup, { targetUserId: bob.user.userId });

    // The subscription goes with the 410, after the push service answered: once its row is gone,
    // the next call finds no way to ring Bob.
    await waitFor(async () => (await server.db('push_subscriptions').where({ user_id: bob.user.userId }).first('id')) === undefined, "Bob's gone subscription deleted");
    const again = await call(alice, bob);
    expect((await again.hangups.next()).json<CallEvent>().reason).to.equal('unavailable');
    expect(pushService.pushesTo(subscription)).to.have.length(1);
  });

  it('forgets a subscription the device deletes, and only the owner may delete it', async () => {
    const alice = await person('Dialer');
    const bob = await person('Unsubscriber');
    const subscription = await subscribed(bob);
    const stranger = await person('Stranger');
    expect((await stranger.client.delete(api.pushSubscriptions, { json: { endpoint: subscription.request.endpoint } })).status).to.equal(200);
    expect((await bob.client.delete(api.pushSubscriptions, { json: {} })).status).to.equal(400);
    const stillThere = await call(alice, bob);
    await pushService.nthPushTo(subscription, 1);
    await stillThere.stomp.send(app.callHangup, { targetUserId: bob.user.userId });

    expect((await bob.client.delete(api.pushSubscriptions, { json: { endpoint: subscription.request.endpoint } })).status).to.equal(200);
    const { hangups } = await call(alice, bob);
    expect((await hangups.next()).json<CallEvent>().reason).to.equal('unavailable');
  });

  it("deletes a device's subscription when that device logs out, keeping the user's other devices", async () => {
    const alice = await person('Caller two');
    const bob = await person('Leaver');
    const phone = await subscribed(bob);
    const laptopClient = await loginClient(server, bob.user);
    const laptop = await subscribed({ user: bob.user, client: laptopClient });
    expect((await bob.client.post(api.logout)).status).to.equal(200);

    const ringing = await call(alice, bob);
    await pushService.nthPushTo(laptop, 1);
    expect(ringing.hangups.drain(), "ringing, not 'unavailable' (sent before the RECEIPT of the initiate)").to.deep.equal([]);
    // The phone's push would have gone out with the laptop's, concurrently: no event marks its absence.
    await expectNothingFor(QUIET_MS, 'a push to the device that logged out', () => pushService.pushesTo(phone).length > 0);
    await ringing.stomp.send(app.callHangup, { targetUserId: bob.user.userId });

    expect((await laptopClient.post(api.logout)).status).to.equal(200);
    const { hangups } = await call(alice, bob);
    expect((await hangups.next()).json<CallEvent>().reason).to.equal('unavailable');
  });
});
