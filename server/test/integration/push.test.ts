// Web Push end to end without the internet: a local HTTP server plays the browsers' push
// service; subscriptions carry keys the test made, so it decrypts (aes128gcm) what the server
// pushes and checks the VAPID Authorization header. Calls ring an offline callee by push,
// a group call rings its closed-tab members with a push of its own (group-call: the room, the
// starter), offline members hear of new messages (at most once per room a minute), and endpoints the push
// service calls gone, or deleted, or of a logged-out session, are rung no more.
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { api } from '@common/api';
import { app, queues } from '@common/destinations';
import type { GroupCallSignal } from '@common/group-call';
import type { CallEvent } from '@common/payloads';
import type { PushPayload } from '@common/push';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase, IN_CI } from '../support/databases';
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

function janusInstalled(): boolean {
  try {
    return execFileSync('janus', ['--help'], { encoding: 'utf8' }).includes('janus');
  } catch {
    return false;
  }
}

interface Person {
  user: TestUser;
  client: ApiClient;
}

forEachDatabase('web push', (db) => {
  let server: RunningServer;
  const pushService = new LocalPushService();
  /** Where a hostile push service redirects to: an internal service, on the allow-list too. */
  const inside = new LocalPushService();
  const open: TestStomp[] = [];

  before(async () => {
    await pushService.start();
    await inside.start();
    // The push service is played on loopback over http: only the test-only allow-list lets the
    // outbound guard reach it.
    server = await startTestServer({
      databaseUrl: db.url(),
      env: { CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS), VAPID_SUBJECT: 'mailto:ops@example.test', METRICS_TOKEN, OUTBOUND_ALLOW_HOSTS: `${new URL(pushService.url).host},${new URL(inside.url).host}` },
    });
  });
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((s) => s.disconnect()));
  });
  after(async () => {
    await server?.stop();
    await pushService.stop();
    await inside.stop();
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
  const call = async (caller: Person, callee: Person, media: 'audio' | 'video' = 'audio'): Promise<{ stomp: TestStomp; hangups: Inbox }> => {
    const stomp = await connect(caller);
    const hangups = await stomp.subscribe(queues.call('hangup', caller.user.userId));
    await stomp.send(app.callInitiate, { targetUserId: callee.user.userId, userId: caller.user.userId, ...(media === 'video' ? { media } : {}) });
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

  it('says a video call is one in the ring it pushes', async () => {
    const alice = await person('Alice video');
    const bob = await person('Bob video');
    const subscription = await subscribed(bob);
    await call(alice, bob, 'video');
    const push = await pushService.nthPushTo(subscription, 1);
    expect(payloadOf(subscription, push)).to.deep.equal({ kind: 'incoming-call', callerId: alice.user.userId, callerName: 'Alice video', media: 'video' });
  });

  it('rings a callee with no open connection by push, signed with VAPID, and keeps the call ringing', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const subscription = await subscribed(bob);
    const { stomp, hangups } = await call(alice, bob);

    const push = await pushService.nthPushTo(subscription, 1);
    expect(payloadOf(subscription, push)).to.deep.equal({ kind: 'incoming-call', callerId: alice.user.userId, callerName: 'Alice', media: 'audio' });
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

  it('rings the closed-tab members of a room where a group call starts with a group-call push naming the call and its starter', async function () {
    if (!janusInstalled()) {
      if (IN_CI) throw new Error('janus is not installed: CI must run every test');
      console.warn('\n  !!! SKIPPING the group ring push: janus is not installed (apt-get install janus)\n');
      this.skip();
    }
    const [alice, bob, carol] = [await person('Alice'), await person('Bob'), await person('Carol')];
    const [bobSubscription, carolSubscription] = [await subscribed(bob), await subscribed(carol)];
    const room = await alice.client.post(api.roomCreate, { targetUserId: bob.user.userId, targetUserName: 'x' });
    const chatRoomId = room.body.chatRoomId as number;
    expect((await alice.client.post(api.addUser, { chatRoomId, userId: carol.user.userId })).status).to.equal(200);
    const carolTab = await connect(carol);
    const carolRing = await carolTab.subscribe(queues.call('group-incoming', carol.user.userId));
    const stomp = await connect(alice);
    const signals = await stomp.subscribe(queues.call('group-signal', alice.user.userId));
    await stomp.send(app.groupCallStart, { chatRoomId, media: 'video' });
    const joined = (await signals.next(20_000)).json<GroupCallSignal>();
    if (joined.kind !== 'joined') throw new Error(`not joined: ${JSON.stringify(joined)}`);

    const push = await pushService.nthPushTo(bobSubscription, 1);
    expect(payloadOf(bobSubscription, push)).to.deep.equal({ kind: 'group-call', chatRoomId, callId: joined.callId, media: 'video', starterName: 'Alice' });
    expect(push.headers.urgency).to.equal('high');
    // Carol is connected: rung on her queue, not pushed.
    await carolRing.next();
    await expectNothingFor(QUIET_MS, 'a push to Carol, who is connected', () => pushService.pushesTo(carolSubscription).length > 0);
    await stomp.send(app.groupCallLeave, { chatRoomId, callId: joined.callId });
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

  it('pushes nothing to a member who muted the room, and pushes again once they unmute it', async () => {
    const alice = await person('Writer');
    const bob = await person('Muted reader');
    const dan = await person('Loud reader');
    const bobSubscription = await subscribed(bob);
    const danSubscription = await subscribed(dan);
    const room = (await alice.client.post<{ chatRoomId: number }>(api.roomCreate, { targetUserId: bob.user.userId })).body.chatRoomId;
    expect((await alice.client.post(api.addUser, { chatRoomId: room, userId: dan.user.userId })).status).to.equal(200);
    expect((await bob.client.patch(api.roomSettings, { chatRoomId: room, muted: true })).body).to.deep.equal({ chatRoomId: room, muted: true, pinned: false });
    const writer = await connect(alice);

    await writer.send(app.privateMessage, { chatRoomId: room, content: 'hello all', clientMsgId: 'mute-1' });
    await pushService.nthPushTo(danSubscription, 1);
    await expectNothingFor(QUIET_MS, 'a push to Bob, who muted the room', () => pushService.pushesTo(bobSubscription).length > 0);

    expect((await bob.client.patch(api.roomSettings, { chatRoomId: room, muted: false })).status).to.equal(200);
    await writer.send(app.privateMessage, { chatRoomId: room, content: 'hello again', clientMsgId: 'mute-2' });
    const push = await pushService.nthPushTo(bobSubscription, 1);
    expect(payloadOf(bobSubscription, push)).to.include({ kind: 'message', chatRoomId: room, content: 'hello again' });
  });

  it('pushes a mention even in a muted room (mention: true), and nothing to a member who blocked the sender', async () => {
    const alice = await person('Mentioner');
    const bob = await person('Muted mentioned');
    const dan = await person('Blocking reader');
    const bobSubscription = await subscribed(bob);
    const danSubscription = await subscribed(dan);
    const room = (await alice.client.post<{ chatRoomId: number }>(api.roomCreate, { targetUserId: bob.user.userId })).body.chatRoomId;
    expect((await alice.client.post(api.addUser, { chatRoomId: room, userId: dan.user.userId })).status).to.equal(200);
    expect((await bob.client.patch(api.roomSettings, { chatRoomId: room, muted: true })).status).to.equal(200);
    expect((await dan.client.request('PUT', api.block(alice.user.userId))).status).to.equal(200);
    const writer = await connect(alice);

    await writer.send(app.privateMessage, { chatRoomId: room, content: 'plain', clientMsgId: 'mention-1' });
    await writer.send(app.privateMessage, { chatRoomId: room, content: '@Bob look', clientMsgId: 'mention-2', mentions: [bob.user.userId, dan.user.userId] });
    const push = await pushService.nthPushTo(bobSubscription, 1);
    expect(payloadOf(bobSubscription, push)).to.deep.include({ kind: 'message', chatRoomId: room, content: '@Bob look', mention: true });
    await expectNothingFor(QUIET_MS, 'a push to Dan, who blocked the sender', () => pushService.pushesTo(danSubscription).length > 0);
    expect(pushService.pushesTo(bobSubscription)).to.have.length(1);
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

  describe('endpoints our server may not reach, and what one user may cost', () => {
    const outcome = (name: string) => metricValue(server, METRICS_TOKEN, 'letschat_pushes_total', `outcome="${name}"`);
    const sessionOf = async (p: Person): Promise<number> => Number((await server.db('sessions').where({ user_id: p.user.userId }).first<{ id: number }>('id'))!.id);

    it('refuses with 400 every endpoint form of the attack: plain http, user info, private addresses in any notation', async () => {
      const { client } = await person('Attacker');
      const keys = pushService.subscription().request.keys;
      const endpoints = [
        'http://127.0.0.1:3306/', 'http://[::1]:6379/', 'http://2130706433:3306/', 'https://user:pass@push.example.com/x', 'https://127.0.0.1/x', 'https://[::1]/x',
        'https://2130706433/x', 'https://0x7f.0.0.1/x', 'https://0177.0.0.1/x', 'https://[::ffff:127.0.0.1]/x', 'https://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/x',
        'https://100.64.0.1/x', 'https://[fd00::1]/x', 'https://localhost/x', `${pushService.url.replace('127.0.0.1', 'localhost')}/x`,
      ];
      for (const endpoint of endpoints) {
        const res = await client.post<{ error: string; message: string }>(api.pushSubscriptions, { endpoint, keys });
        expect([res.status, res.body.error], endpoint).to.deep.equal([400, 'invalid_subscription']);
        expect(res.body.message, endpoint).to.match(/^endpoint refused: /);
      }
      expect(await server.db('push_subscriptions').where({ endpoint: 'https://127.0.0.1/x' }).first('id')).to.equal(undefined);
    });

    it('checks an endpoint again when it sends: one stored before the rule goes unrequested and is counted refused', async () => {
      const alice = await person('Old caller');
      const bob = await person('Old subscriber');
      const stale = pushService.subscription();
      // As if stored before the guard, or its name resolved elsewhere then: only the send-time check stands.
      // The push service's own port in another notation: the allow-list's exact host:port does not match it.
      const endpoint = `http://[::ffff:127.0.0.1]:${new URL(pushService.url).port}/push/stale`;
      await server.db('push_subscriptions').insert({ user_id: bob.user.userId, session_id: await sessionOf(bob), endpoint_hash: `stale-${bob.user.userId}`, endpoint, p256dh: stale.request.keys.p256dh, auth: stale.request.keys.auth, created_at_ms: Date.now() });
      const before = await outcome('refused');
      const ringing = await call(alice, bob);
      await waitFor(async () => (await outcome('refused')) > before, 'the stale endpoint counted refused');
      expect(pushService.received.filter((p) => p.path === '/push/stale')).to.deep.equal([]);
      await ringing.stomp.send(app.callHangup, { targetUserId: bob.user.userId });
    });

    it('follows no redirect of a push service', async () => {
      const alice = await person('Redirected caller');
      const bob = await person('Redirected');
      const subscription = await subscribed(bob);
      pushService.redirect(subscription, 302, `${inside.url}/internal`);
      const before = await outcome('failed');
      const ringing = await call(alice, bob);
      await pushService.nthPushTo(subscription, 1);
      await waitFor(async () => (await outcome('failed')) > before, 'the redirected push counted failed');
      expect(inside.received).to.deep.equal([]);
      await ringing.stomp.send(app.callHangup, { targetUserId: bob.user.userId });
    });

    it('keeps 10 subscriptions per user, the 11th replacing the oldest, and one call rings those 10 only', async () => {
      const alice = await person('Many caller');
      const bob = await person('Many devices');
      const subscriptions: TestSubscription[] = [];
      for (let i = 0; i < 12; i++) subscriptions.push(await subscribed(bob));
      const stored = (await server.db('push_subscriptions').where({ user_id: bob.user.userId }).select('endpoint')).map((r: { endpoint: string }) => r.endpoint);
      expect(stored).to.have.length(10);
      const before = await outcome('sent');
      const ringing = await call(alice, bob);
      await waitFor(async () => (await outcome('sent')) >= before + 10, 'ten pushes sent');
      expect(subscriptions.map((s) => pushService.pushesTo(s).length)).to.deep.equal([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
      await ringing.stomp.send(app.callHangup, { targetUserId: bob.user.userId });
    });

    it('makes at most 10 requests for one message to a member holding 500 stored subscriptions', async () => {
      const alice = await person('Flood writer');
      const bob = await person('Flood holder');
      const session = await sessionOf(bob);
      const template = pushService.subscription();
      const port = new URL(pushService.url).port;
      const rows = Array.from({ length: 500 }, (_, i) => ({
        user_id: bob.user.userId, session_id: session, endpoint_hash: `flood-${bob.user.userId}-${i}`, endpoint: `http://127.0.0.1:${port}/push/flood-${i}`,
        p256dh: template.request.keys.p256dh, auth: template.request.keys.auth, created_at_ms: i,
      }));
      for (let i = 0; i < rows.length; i += 100) await server.db('push_subscriptions').insert(rows.slice(i, i + 100));
      const room = (await alice.client.post<{ chatRoomId: number }>(api.roomCreate, { targetUserId: bob.user.userId })).body.chatRoomId;
      const writer = await connect(alice);
      const flood = () => pushService.received.filter((p) => p.path.startsWith('/push/flood-')).length;
      const settled = async () => (await outcome('sent')) + (await outcome('failed')) + (await outcome('dropped'));
      const before = await settled();
      await writer.send(app.privateMessage, { chatRoomId: room, content: 'one message', clientMsgId: 'flood-1' });
      await waitFor(async () => (await settled()) >= before + 10, 'the pushes of one message settled');
      expect(flood()).to.equal(10);
    });
  });
});
