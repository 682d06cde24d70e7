// The push service on a real in-memory SQLite database with a recording sender: who is pushed,
// coalescing per member and room, endpoints that are gone, and the bound on pushes in flight.
import { expect } from 'chai';
import pino from 'pino';
import type { PushPayload } from '@common/push';
import type { Knex } from '../../../src/db/knex';
import { PushRepository, type StoredPushSubscription } from '../../../src/features/push/push-repository';
import { MAX_PUSHES_IN_FLIGHT, MESSAGE_PUSH_WINDOW_MS, PushService, type PushOutcome, type PushSender } from '../../../src/features/push/push-service';
import { generateVapidKeys } from '../../../src/features/push/web-push-sender';
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
      allowHttpEndpoints: false,
      count: (outcome) => outcomes.push(outcome),
    });
    await push.subscribe(BOB, String(BOB), subscriptionBody(BOB));
    await push.subscribe(CAROL, String(CAROL), subscriptionBody(CAROL));
  });
  afterEach(() => db.destroy());

  const message = (id: number, content = 'hi') => ({ id, roomId: 7, senderId: ALICE, senderName: 'User 1', content });

  it('refuses an http endpoint unless the server runs on http', async () => {
    const body = { ...subscriptionBody(9), endpoint: 'http://push.example.test/9' };
    let refused: unknown = null;
    await push.subscribe(ALICE, String(ALICE), body).catch((error: unknown) => (refused = error));
    expect(refused).to.have.property('code', 'invalid_subscription');
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
    push.incomingCall(BOB, { userId: ALICE, name: 'User 1' });
    push.incomingCall(CAROL, { userId: ALICE, name: 'User 1' });
    await push.idle();
    expect(await push.hasSubscription(BOB)).to.equal(false);
    expect(await push.hasSubscription(CAROL)).to.equal(true);
    expect(outcomes.sort()).to.deep.equal(['failed', 'gone']);
  });

  it(`drops pushes beyond ${MAX_PUSHES_IN_FLIGHT} in flight instead of queueing them`, async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = () => held;
    for (let i = 0; i < MAX_PUSHES_IN_FLIGHT + 5; i += 1) push.incomingCall(BOB, { userId: ALICE, name: 'User 1' });
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
