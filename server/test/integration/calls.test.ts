// Calls over real STOMP connections: what each party receives, what a third party cannot do,
// refusals of forged or malformed frames, ring timeout and dropped connections, and the
// ICE-servers endpoint's TURN REST credentials.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { api, type IceServer } from '@common/api';
import { app, CALL_SIGNALS, queues, type CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { loginClient, newLoggedInUser, type TestUser } from '../support/users';

const RING_TIMEOUT_MS = 1500;
/**
 * How long a "nothing arrives" check listens where no event marks the end of what could send it
 * (a lookup after a SUBSCRIBE, the handling of a closed socket). Elsewhere signals are sent by the
 * handler of the frame, before its RECEIPT: nothingSoFar() checks after a round trip instead.
 */
const QUIET_MS = 400;
const NOW_MS = 1_800_000_000_000;
const TURN_SECRET = 'integration-secret';

interface Party {
  user: TestUser;
  stomp: TestStomp;
  inbox: Record<CallSignal, Inbox>;
}

async function refused(sending: Promise<void>): Promise<string> {
  try {
    await sending;
  } catch (err) {
    if (err instanceof StompErrorFrame) return err.frame.headers.message ?? '';
    throw err;
  }
  throw new Error('the frame was accepted');
}

forEachDatabase('voice call signalling', (db) => {
  let server: RunningServer;
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({
      databaseUrl: db.url(),
      clock: () => NOW_MS,
      env: {
        CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS),
        STUN_URLS: 'stun:stun.example.test:3478',
        TURN_URLS: 'turn:turn.example.test:3478?transport=udp,turn:turn.example.test:3478?transport=tcp',
        TURN_SECRET,
        TURN_TTL: '600',
      },
    });
  });

  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((s) => s.disconnect()));
  });

  after(async () => {
    await server?.stop();
  });

  async function subscribeAll(stomp: TestStomp, userId: number): Promise<Record<CallSignal, Inbox>> {
    const entries = await Promise.all(CALL_SIGNALS.map(async (s) => [s, await stomp.subscribe(queues.call(s, userId))] as const));
    return Object.fromEntries(entries) as Record<CallSignal, Inbox>;
  }

  async function party(name: string): Promise<Party> {
    const { user, client } = await newLoggedInUser(server, { name });
    const stomp = await connectStomp(server, client.cookieHeader());
    open.push(stomp);
    return { user, stomp, inbox: await subscribeAll(stomp, user.userId) };
  }

  async function event(inbox: Inbox): Promise<CallEvent> {
    return (await inbox.next()).json<CallEvent>();
  }

  /** Alice calls Bob and Bob accepts. */
  async function activeCall(): Promise<{ alice: Party; bob: Party }> {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, userId: alice.user.userId });
    await event(bob.inbox.incoming);
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId, userId: bob.user.userId });
    await event(alice.inbox.accepted);
    return { alice, bob };
  }

  it('rings the callee with the caller’s id and name, and tells the caller of the accept', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, userId: alice.user.userId });
    expect(await event(bob.inbox.incoming)).to.deep.equal({ userId: alice.user.userId, name: 'Alice' });
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId, userId: bob.user.userId });
    expect(await event(alice.inbox.accepted)).to.include({ userId: bob.user.userId });
  });

  it('stops the ringing in the callee’s other tabs once one tab accepts, and leaves the accepting tab in the call', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    const otherTab = await connectStomp(server, (await loginClient(server, bob.user)).cookieHeader());
    open.push(otherTab);
    const otherInbox = await subscribeAll(otherTab, bob.user.userId);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, userId: alice.user.userId });
    await Promise.all([event(bob.inbox.incoming), event(otherInbox.incoming)]);
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId, userId: bob.user.userId });
    expect(await event(otherInbox.hangup)).to.deep.equal({ userId: alice.user.userId, targetUserId: alice.user.userId, reason: 'answered-elsewhere' });
    await bob.inbox.hangup.nothingSoFar();
    await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: { type: 'offer', sdp: 'v=0' } });
    expect(await event(bob.inbox.offer)).to.include({ userId: alice.user.userId });
  });

  it('accepts initiate, accept and reject without a userId, the sender being the session’s user', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    expect(await event(bob.inbox.incoming)).to.include({ userId: alice.user.userId });
    await bob.stomp.send(app.callReject, { targetUserId: alice.user.userId });
    expect(await event(alice.inbox.rejected)).to.deep.equal({ userId: bob.user.userId, reason: 'rejected' });
  });

  it('passes offer, answer and candidates between the parties, marked with the sender', async () => {
    const { alice, bob } = await activeCall();
    const offer = { type: 'offer', sdp: 'v=0\r\n' };
    await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: offer });
    expect(await event(bob.inbox.offer)).to.deep.equal({ sdp: offer, userId: alice.user.userId, targetUserId: bob.user.userId });
    await bob.stomp.send(app.callAnswer, { targetUserId: alice.user.userId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
    expect(await event(alice.inbox.answer)).to.include({ userId: bob.user.userId });
    const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    await bob.stomp.send(app.callIceCandidate, { targetUserId: alice.user.userId, candidate });
    expect(await event(alice.inbox['ice-candidate'])).to.deep.equal({ candidate, userId: bob.user.userId, targetUserId: alice.user.userId });
    await alice.stomp.send(app.callHangup, { targetUserId: bob.user.userId });
    expect(await event(bob.inbox.hangup)).to.deep.equal({ userId: alice.user.userId, targetUserId: alice.user.userId });
  });

  it('lets no third user inject offers, answers, candidates or a hang-up into another pair’s call', async () => {
    const { alice, bob } = await activeCall();
    const mallory = await party('Mallory');
    for (const target of [alice, bob]) {
      const targetUserId = target.user.userId;
      await mallory.stomp.send(app.callOffer, { targetUserId, sdp: { type: 'offer', sdp: 'v=0\r\n' } });
      await mallory.stomp.send(app.callAnswer, { targetUserId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
      await mallory.stomp.send(app.callIceCandidate, { targetUserId, candidate: { candidate: 'candidate:evil' } });
      await mallory.stomp.send(app.callHangup, { targetUserId });
      await mallory.stomp.send(app.callAccept, { targetUserId });
    }
    const signals = ['offer', 'answer', 'ice-candidate', 'hangup', 'accepted'] as const;
    await Promise.all([alice, bob].flatMap((target) => signals.map((signal) => target.inbox[signal].nothingSoFar())));
    // The real call is untouched.
    await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: 'v=0\r\n' });
    expect(await event(bob.inbox.offer)).to.include({ userId: alice.user.userId });
  });

  it('relays no offer before the callee has accepted', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    await event(bob.inbox.incoming);
    await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: 'v=0\r\n' });
    await bob.inbox.offer.nothingSoFar();
  });

  it('refuses a third user’s subscription to someone else’s call queues', async () => {
    const { alice } = await activeCall();
    const mallory = await party('Mallory');
    const error = await refused(mallory.stomp.subscribe(queues.call('offer', alice.user.userId)).then(() => {}));
    expect(error).to.not.equal('');
  });

  for (const destination of [app.callInitiate, app.callAccept, app.callReject]) {
    it(`refuses ${destination} naming a userId that is not the session’s user`, async () => {
      const [alice, bob, carol] = await Promise.all([party('Alice'), party('Bob'), party('Carol')]);
      const message = await refused(alice.stomp.send(destination, { targetUserId: bob.user.userId, userId: carol.user.userId }));
      expect(message).to.match(/userId/);
      await Promise.all((['incoming', 'accepted', 'rejected'] as const).map((signal) => bob.inbox[signal].nothingSoFar()));
    });
  }

  it('refuses malformed call frames with an ERROR naming the problem', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    expect(await refused(alice.stomp.send(app.callInitiate, '{not json'))).to.match(/JSON/);
    const again = await party('Alice again');
    expect(await refused(again.stomp.send(app.callOffer, { targetUserId: bob.user.userId }))).to.match(/sdp/);
    const third = await party('Alice third');
    expect(await refused(third.stomp.send(app.callHangup, { targetUserId: 'bob' }))).to.match(/targetUserId/);
  });

  it('gives every hang-up the peer\'s id in targetUserId, a number like the incoming event\'s userId (as the original server did)', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    const incoming = (await bob.inbox.incoming.next()).json<Record<string, unknown>>();
    expect(typeof incoming.userId).to.equal('number');
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
    await event(alice.inbox.accepted);
    await bob.stomp.send(app.callHangup, { targetUserId: alice.user.userId });
    const hangup = (await alice.inbox.hangup.next()).json<Record<string, unknown>>();
    expect(hangup).to.deep.equal({ userId: bob.user.userId, targetUserId: bob.user.userId });
    expect(typeof hangup.targetUserId).to.equal(typeof incoming.userId);
  });

  it('rings again on a connection that subscribes while the call still rings (the callee reloaded), and not after', async () => {
    const alice = await party('Alice');
    const { user: bob, client } = await newLoggedInUser(server, { name: 'Bob' });
    const firstTab = await connectStomp(server, client.cookieHeader());
    open.push(firstTab);
    await firstTab.subscribe(queues.call('incoming', bob.userId));
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.userId });
    await firstTab.disconnect();
    // The page reloads: a new connection subscribes while Alice's call still rings.
    const reloaded = await connectStomp(server, client.cookieHeader());
    open.push(reloaded);
    const incoming = await reloaded.subscribe(queues.call('incoming', bob.userId));
    expect(await event(incoming)).to.deep.equal({ userId: alice.user.userId, name: 'Alice' });
    await reloaded.send(app.callReject, { targetUserId: alice.user.userId });
    await event(alice.inbox.rejected);
    const later = await connectStomp(server, client.cookieHeader());
    open.push(later);
    // The ring on subscribe follows a lookup after the RECEIPT: a window, as nothing marks its end.
    await (await later.subscribe(queues.call('incoming', bob.userId))).nothingWithin(QUIET_MS);
  });

  it('refuses an sdp nested 5000 deep with an ERROR naming it, not an internal error', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    await event(bob.inbox.incoming);
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
    await event(alice.inbox.accepted);
    const deep = `{"targetUserId":${bob.user.userId},"sdp":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await refused(alice.stomp.send(app.callOffer, deep))).to.match(/sdp is nested too deeply/);
  });

  it('refuses a call to oneself, and answers a call to nobody with an unavailable hang-up, not an ERROR', async () => {
    const alice = await party('Alice');
    expect(await refused(alice.stomp.send(app.callInitiate, { targetUserId: alice.user.userId }))).to.match(/targetUserId/);
    const again = await party('Alice again');
    await again.stomp.send(app.callInitiate, { targetUserId: 999_999 });
    expect(await event(again.inbox.hangup)).to.deep.equal({ userId: 999_999, targetUserId: 999_999, reason: 'unavailable' });
  });

  it('answers a call to a user with no open connection at once with an unavailable hang-up', async () => {
    const alice = await party('Alice');
    const { user: offline } = await newLoggedInUser(server, { name: 'Offline' });
    await alice.stomp.send(app.callInitiate, { targetUserId: offline.userId });
    expect(await event(alice.inbox.hangup)).to.deep.equal({ userId: offline.userId, targetUserId: offline.userId, reason: 'unavailable' });
    // Nothing rings: Alice can call again at once, and is not held busy.
    await alice.stomp.send(app.callInitiate, { targetUserId: offline.userId });
    expect(await event(alice.inbox.hangup)).to.include({ reason: 'unavailable' });
  });

  it('answers busy to a caller whose callee is already ringing or in a call', async () => {
    const [alice, bob, carol] = await Promise.all([party('Alice'), party('Bob'), party('Carol')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    await event(bob.inbox.incoming);
    await carol.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    expect(await event(carol.inbox.rejected)).to.deep.equal({ userId: bob.user.userId, reason: 'busy' });
    await bob.inbox.incoming.nothingSoFar();
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
    await event(alice.inbox.accepted);
    await carol.stomp.send(app.callInitiate, { targetUserId: alice.user.userId });
    expect(await event(carol.inbox.rejected)).to.deep.equal({ userId: alice.user.userId, reason: 'busy' });
  });

  it('does not let a user who is in a call start another', async () => {
    const { alice } = await activeCall();
    const carol = await party('Carol');
    await alice.stomp.send(app.callInitiate, { targetUserId: carol.user.userId });
    expect(await event(alice.inbox.rejected)).to.deep.equal({ userId: carol.user.userId, reason: 'busy' });
    await carol.inbox.incoming.nothingSoFar();
  });

  it('hangs up both sides of a call nobody answers within the ring timeout', async () => {
    const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
    await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
    await event(bob.inbox.incoming);
    expect(await event(alice.inbox.hangup)).to.deep.equal({ userId: bob.user.userId, targetUserId: bob.user.userId, reason: 'timeout' });
    expect(await event(bob.inbox.hangup)).to.deep.equal({ userId: alice.user.userId, targetUserId: alice.user.userId, reason: 'timeout' });
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
    await alice.inbox.accepted.nothingSoFar();
  });

  it('hangs up on the peer when a party’s last connection drops, not while another remains', async () => {
    const { alice, bob } = await activeCall();
    // Bob's second browser: closing it leaves the call up.
    const secondBrowser = await loginClient(server, bob.user);
    const secondTab = await connectStomp(server, secondBrowser.cookieHeader());
    await secondTab.disconnect();
    // The server handles the closed socket after the client saw it close: a window.
    await alice.inbox.hangup.nothingWithin(QUIET_MS);
    await bob.stomp.client.deactivate({ force: true });
    expect(await event(alice.inbox.hangup)).to.deep.equal({ userId: bob.user.userId, targetUserId: bob.user.userId, reason: 'disconnected' });
  });

  describe('GET /api/call/ice-servers', () => {
    it('requires a session', async () => {
      const res = await new ApiClient(server.url).get(api.iceServers);
      expect(res.status).to.equal(401);
    });

    it('lists STUN, and TURN with credentials that name the user, expire after TURN_TTL and are keyed with TURN_SECRET', async () => {
      const { user, client } = await newLoggedInUser(server);
      const res = await client.get<IceServer[]>(api.iceServers);
      expect(res.status).to.equal(200);
      expect(res.body).to.have.length(2);
      expect(res.body[0]).to.deep.equal({ urls: ['stun:stun.example.test:3478'] });
      const turn = res.body[1];
      expect(turn.urls).to.deep.equal(['turn:turn.example.test:3478?transport=udp', 'turn:turn.example.test:3478?transport=tcp']);
      expect(turn.username).to.equal(`${NOW_MS / 1000 + 600}:${user.userId}`);
      expect(turn.credential).to.equal(crypto.createHmac('sha1', TURN_SECRET).update(turn.username!).digest('base64'));
    });
  });
});

forEachDatabase('ICE servers without TURN configured', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), env: { STUN_URLS: 'stun:a.example.test stun:b.example.test', TURN_URLS: 'turn:t.example.test' } });
  });
  after(async () => {
    await server?.stop();
  });

  it('offers only the STUN servers when no TURN_SECRET is set, never a fixed TURN credential', async () => {
    const { client } = await newLoggedInUser(server);
    const res = await client.get<IceServer[]>(api.iceServers);
    expect(res.body).to.deep.equal([{ urls: ['stun:a.example.test', 'stun:b.example.test'] }]);
  });
});
