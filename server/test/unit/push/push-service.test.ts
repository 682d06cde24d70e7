// The push service on a real in-memory SQLite database with a recording sender: who is pushed,
// coalescing per member and room, endpoints that are gone, and the bound on pushes in flight.
import { expect } from 'chai';
import pino from 'pino';
import type { PushPayload } from '@common/push';
import type { Knex } from '../../../src/db/knex';
import { PushRepository, type StoredPushSubscription } from '../../../src/features/push/push-repository';
import {
  MAX_PUSHES_IN_FLIGHT,
  MAX_PUSHES_IN_FLIGHT_PER_USER,
  MAX_REQUESTS_IN_FLIGHT_PER_ORIGIN,
  MAX_SUBSCRIPTIONS_PER_USER,
  MESSAGE_PUSH_WINDOW_MS,
  PushService,
  type PushOutcome,
  type PushSender,
} from '../../../src/features/push/push-service';
import { waitFor } from '../../support/wait';
import { generateVapidKeys } from '../../../src/features/push/web-push-sender';
import { Outbound } from '../../../src/outbound';
import { memoryDatabase } from '../../support/memory-deps';

const ALICE = 1;
const BOB = 2;
const CAROL = 3;

interface Sent {
  to: number;
  payload: PushPayload;
}

async function seed(db: Knex): Promise<void> {
  const users = [ALICE, BOB, CAROL].map((id) => ({ id, email: `u${id}@example.test`, name: `User ${id}`, password_hash: null }));
  await db('users').insert(users);
  await db('sessions').insert([ALICE, BOB, CAROL].map((id) => ({ id, token_hash: `hash-${id}`, user_id: id, created_at_ms: 0, last_seen_at_ms: 0 })));
}

function subscriptionBody(n: number) {
  return { endpoint: `https://push.example.test/${n}`, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } };
}

describe('the push service', () => {
  const guard = new Outbound({ allowHosts: [] });
  after(() => guard.close());
  let db: Knex;
  let now: number;
  let sent: Sent[];
  let outcomes: PushOutcome[];
  let online: Set<number>;
  /** Connected to another node of a cluster: known only through presence. */
  let onlineElsewhere: Set<number>;
  let answer: (s: StoredPushSubscription) => Promise<unknown>;
  let push: PushService;

  beforeEach(async () => {
    db = await memoryDatabase();
    await seed(db);
    now = 1_000_000;
    sent = [];
    outcomes = [];
    online = new Set();
    onlineElsewhere = new Set();
    answer = () => Promise.resolve();
    const send: PushSender = (subscription, payload) => {
      sent.push({ to: subscription.userId, payload: JSON.parse(payload) as PushPayload });
      return answer(subscription);
    };
    push = new PushService({
      repo: new PushRepository(db),
      send,
      vapidKeys: () => Promise.resolve(generateVapidKeys()),
      isConnectedHere: (userId) => online.has(userId),
      isOnline: (userId) => Promise.resolve(online.has(userId) || onlineElsewhere.has(userId)),
      clock: () => now,
      log: pino({ level: 'silent' }),
      checkEndpoint: (endpoint) => void guard.checkUrl(endpoint),
      count: (outcome) => outcomes.push(outcome),
    });
    await push.subscribe(BOB, String(BOB), subscriptionBody(BOB));
    await push.subscribe(CAROL, String(CAROL), subscriptionBody(CAROL));
  });
  afterEach(() => db.destroy());

  const message = (id: number, content = 'hi') => ({ id, roomId: 7, senderId: ALICE, senderName: 'User 1', content });

  it('refuses an endpoint that is not https, carries a user name, or names a host that is not public', async () => {
    for (const endpoint of ['http://push.example.test/9', 'https://user:pass@push.example.test/9', 'https://127.0.0.1/9', 'https://localhost/9', 'https://2130706433/9']) {
      let refused: unknown = null;
      await push.subscribe(ALICE, String(ALICE), { ...subscriptionBody(9), endpoint }).catch((error: unknown) => (refused = error));
      expect(refused, endpoint).to.have.property('code', 'invalid_subscription');
      expect(refused, endpoint).to.have.property('message').that.matches(/^endpoint refused: /);
    }
    expect(await push.hasSubscription(ALICE)).to.equal(false);
  });

  it(`keeps the newest ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions of a user: an 11th replaces the oldest`, async () => {
    for (let n = 100; n < 100 + MAX_SUBSCRIPTIONS_PER_USER + 1; n += 1) {
      await push.subscribe(ALICE, String(ALICE), subscriptionBody(n));
      now += 1;
    }
    push.incomingCall(ALICE, { userId: BOB, name: 'User 2' }, 'audio');
    await push.idle();
    expect(sent).to.have.length(MAX_SUBSCRIPTIONS_PER_USER);
    const endpoints = (await db('push_subscriptions').where({ user_id: ALICE }).select('endpoint')).map((r: { endpoint: string }) => r.endpoint);
    expect(endpoints).to.have.length(MAX_SUBSCRIPTIONS_PER_USER);
    expect(endpoints).not.to.include(subscriptionBody(100).endpoint);
  });

  it(`pushes to the newest ${MAX_SUBSCRIPTIONS_PER_USER} of a user's subscriptions only, however many rows are stored`, async () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ user_id: ALICE, session_id: ALICE, endpoint_hash: `h${i}`, endpoint: `https://push.example.test/old/${i}`, p256dh: subscriptionBody(0).keys.p256dh, auth: subscriptionBody(0).keys.auth, created_at_ms: i }));
    for (let i = 0; i < rows.length; i += 100) await db('push_subscriptions').insert(rows.slice(i, i + 100));
    push.incomingCall(ALICE, { userId: BOB, name: 'User 2' }, 'audio');
    await push.idle();
    expect(sent).to.have.length(MAX_SUBSCRIPTIONS_PER_USER);
  });

  it(`drops pushes to one user beyond ${MAX_PUSHES_IN_FLIGHT_PER_USER} in flight, and requests to one push service beyond ${MAX_REQUESTS_IN_FLIGHT_PER_ORIGIN}`, async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = () => held;
    for (let i = 0; i < MAX_PUSHES_IN_FLIGHT_PER_USER + 3; i += 1) push.incomingCall(BOB, { userId: ALICE, name: 'User 1' }, 'audio');
    expect(outcomes.filter((o) => o === 'dropped')).to.have.length(3);
    // Another user is not held back by Bob's.
    push.incomingCall(CAROL, { userId: ALICE, name: 'User 1' }, 'audio');
    expect(outcomes.filter((o) => o === 'dropped')).to.have.length(3);
    release();
    await push.idle();

    // Many users whose endpoints share one push service: at most the origin's cap go out at once.
    outcomes = [];
    sent = [];
    let releaseAll!: () => void;
    const heldAll = new Promise<void>((resolve) => (releaseAll = resolve));
    answer = () => heldAll;
    const users = Array.from({ length: MAX_REQUESTS_IN_FLIGHT_PER_ORIGIN + 6 }, (_, i) => 1000 + i);
    await db('users').insert(users.map((id) => ({ id, email: `u${id}@example.test`, name: `User ${id}`, password_hash: null })));
    for (const id of users) await push.subscribe(id, String(BOB), subscriptionBody(id));
    for (const id of users) push.incomingCall(id, { userId: ALICE, name: 'User 1' }, 'audio');
    await waitFor(() => sent.length + outcomes.filter((o) => o === 'dropped').length === users.length || undefined, 'every push sent or dropped');
    expect(sent).to.have.length(MAX_REQUESTS_IN_FLIGHT_PER_ORIGIN);
    expect(outcomes.filter((o) => o === 'dropped')).to.have.length(6);
    releaseAll();
    await push.idle();
  });

  it('counts an endpoint the outbound guard refuses at send time as refused, and keeps it', async () => {
    answer = () => Promise.reject(Object.assign(new Error('push.example.test resolves to an address that is not public (loopback)'), { code: 'outbound_refused' }));
    push.incomingCall(BOB, { userId: ALICE, name: 'User 1' }, 'audio');
    await push.idle();
    expect(outcomes).to.deep.equal(['refused']);
    expect(await push.hasSubscription(BOB)).to.equal(true);
  });

  it('pushes a message only to members with no open connection, never to the sender', async () => {
    online.add(CAROL);
    push.newMessage(message(1), [ALICE, BOB, CAROL]);
    await push.idle();
    expect(sent).to.deep.equal([{ to: BOB, payload: { kind: 'message', chatRoomId: 7, messageId: 1, senderName: 'User 1', content: 'hi' } }]);
  });

  it('pushes no message to a member connected to another node of a cluster', async () => {
    onlineElsewhere.add(BOB);
    push.newMessage(message(1), [ALICE, BOB, CAROL]);
    await push.idle();
    expect(sent.map((s) => s.to)).to.deep.equal([CAROL]);
  });

  it('coalesces a room to one push per member a minute, and pushes again after it', async () => {
    push.newMessage(message(1), [ALICE, BOB]);
    now += MESSAGE_PUSH_WINDOW_MS - 1;
    push.newMessage(message(2), [ALICE, BOB]);
    await push.idle();
    expect(sent.map((s) => s.payload.kind === 'message' && s.payload.messageId)).to.deep.equal([1]);
    expect(outcomes).to.include('coalesced');
    now += 1;
    push.newMessage(message(3), [ALICE, BOB]);
    await push.idle();
    expect(sent.map((s) => s.payload.kind === 'message' && s.payload.messageId)).to.deep.equal([1, 3]);
  });

  it('cuts a pushed message to 100 characters', async () => {
    push.newMessage(message(1, '😀'.repeat(120)), [BOB]);
    await push.idle();
    const payload = sent[0].payload;
    expect(payload.kind === 'message' && Array.from(payload.content)).to.have.length(100);
  });

  it('deletes a subscription the push service calls gone (404 or 410), and keeps one that merely failed', async () => {
    answer = (s) => Promise.reject(Object.assign(new Error('refused'), { statusCode: s.userId === BOB ? 410 : 500 }));
    push.incomingCall(BOB, { userId: ALICE, name: 'User 1' }, 'audio');
    push.incomingCall(CAROL, { userId: ALICE, name: 'User 1' }, 'audio');
    await push.idle();
    expect(await push.hasSubscription(BOB)).to.equal(false);
    expect(await push.hasSubscription(CAROL)).to.equal(true);
    expect(outcomes.sort()).to.deep.equal(['failed', 'gone']);
  });

  it(`drops pushes beyond ${MAX_PUSHES_IN_FLIGHT} in flight instead of queueing them`, async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = () => held;
    // One push each to many users, so that no user's own cap is what drops them.
    for (let i = 0; i < MAX_PUSHES_IN_FLIGHT + 5; i += 1) push.incomingCall(10_000 + i, { userId: ALICE, name: 'User 1' }, 'audio');
    expect(outcomes.filter((o) => o === 'dropped')).to.have.length(5);
    release();
    await push.idle();
  });

  it('moves an endpoint subscribed again to the new user and session', async () => {
    await push.subscribe(ALICE, String(ALICE), subscriptionBody(BOB));
    expect(await push.hasSubscription(BOB)).to.equal(false);
    expect(await push.hasSubscription(ALICE)).to.equal(true);
  });
});
