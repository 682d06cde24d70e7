// Calls over real STOMP connections: what each party receives, what a third party cannot do,
// refusals of forged or malformed frames, ring timeout, dropped connections and the reconnect
// grace (resume, connection-lost), ringing, media states and renegotiation, the call record (the
// room's system message for each outcome, GET /api/calls), the original client's calls, and the
// ICE-servers endpoint's TURN REST credentials.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { api, type CallSystemEvent, type CallsResponse, type IceServer } from '@common/api';
import { app, CALL_SIGNALS, ORIGINAL_CALL_SIGNALS, queues, topics, type CallSignal } from '@common/destinations';
import type { CallEvent, ChatMessageEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { loginClient, newLoggedInUser, type TestUser } from '../support/users';
import { eventually } from '../support/wait';

const RING_TIMEOUT_MS = 1500;
/** The reconnect grace: long enough to reconnect in, on a loaded machine. */
const GRACE_MS = 2500;
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
  client: ApiClient;
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
  /** The server's clock: tests that measure a call's length move it. */
  let clockMs = NOW_MS;

  before(async () => {
    server = await startTestServer({
      databaseUrl: db.url(),
      clock: () => clockMs,
      env: {
        CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS),
        CALL_RECONNECT_GRACE_MS: String(GRACE_MS),
        STUN_URLS: 'stun:stun.example.test:3478',
        TURN_URLS: 'turn:turn.example.test:3478?transport=udp,turn:turn.example.test:3478?transport=tcp',
        TURN_SECRET,
        TURN_TTL: '600',
      },
    });
  });

  afterEach(async () => {
    clockMs = NOW_MS;
    await Promise.allSettled(open.splice(0).map((s) => s.disconnect()));
  });

  after(async () => {
    await server?.stop();
  });

  /**
   * Subscribes to the call queues as our client does, every signal, the resume queue last (its
   * subscription is what resumes a call that waits for this user); or, as the original client
   * does, to its seven signals alone.
   */
  async function subscribeAll(stomp: TestStomp, userId: number, signals: readonly CallSignal[] = CALL_SIGNALS): Promise<Record<CallSignal, Inbox>> {
    const entries: Array<readonly [CallSignal, Inbox]> = [];
    for (const s of signals) entries.push([s, await stomp.subscribe(queues.call(s, userId))]);
    return Object.fromEntries(entries) as Record<CallSignal, Inbox>;
  }

  async function party(name: string, signals?: readonly CallSignal[]): Promise<Party> {
    const { user, client } = await newLoggedInUser(server, { name });
    const stomp = await connectStomp(server, client.cookieHeader());
    open.push(stomp);
    return { user, client, stomp, inbox: await subscribeAll(stomp, user.userId, signals) };
  }

  /** The party's page reloaded (or its network came back): a new connection, subscribed again. */
  async function reconnect(p: Party, signals?: readonly CallSignal[]): Promise<Party> {
    const stomp = await connectStomp(server, p.client.cookieHeader());
    open.push(stomp);
    return { ...p, stomp, inbox: await subscribeAll(stomp, p.user.userId, signals) };
  }

  /** The socket dies without a goodbye (a closed lid, a killed tab). */
  async function drop(p: Party): Promise<void> {
    await p.stomp.client.deactivate({ force: true });
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
    const incoming = await event(bob.inbox.incoming);
    expect(incoming).to.deep.equal({ userId: alice.user.userId, name: 'Alice', media: 'audio', callId: incoming.callId });
    expect(incoming.callId).to.be.a('string');
    await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId, userId: bob.user.userId });
    expect(await event(alice.inbox.accepted)).to.deep.equal({ userId: bob.user.userId, media: 'audio', callId: incoming.callId });
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
    expect(await event(incoming)).to.include({ userId: alice.user.userId, name: 'Alice', media: 'audio' });
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

  describe('ringing, media and renegotiation', () => {
    it('tells the caller `ringing` once the callee’s device rings, with the call’s id, and carries video to both sides', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, media: 'video' });
      const incoming = await event(bob.inbox.incoming);
      expect(incoming).to.include({ userId: alice.user.userId, media: 'video' });
      expect(await event(alice.inbox.ringing)).to.deep.equal({ userId: bob.user.userId, callId: incoming.callId });
      await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
      expect(await event(alice.inbox.accepted)).to.deep.equal({ userId: bob.user.userId, media: 'video', callId: incoming.callId });
      await alice.inbox.ringing.nothingSoFar();
    });

    it('refuses a media other than audio or video with an ERROR naming it', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      expect(await refused(alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, media: 'hologram' }))).to.match(/media/);
      await bob.inbox.incoming.nothingSoFar();
    });

    it('relays offers and answers both ways once the call is accepted (renegotiation by either side)', async () => {
      const { alice, bob } = await activeCall();
      await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: { type: 'offer', sdp: 'v=0\r\n' } });
      await event(bob.inbox.offer);
      await bob.stomp.send(app.callAnswer, { targetUserId: alice.user.userId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
      await event(alice.inbox.answer);
      // The callee turns its camera on: it offers now, and the caller answers.
      const upgrade = { type: 'offer', sdp: 'v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n' };
      await bob.stomp.send(app.callOffer, { targetUserId: alice.user.userId, sdp: upgrade });
      expect(await event(alice.inbox.offer)).to.deep.equal({ sdp: upgrade, userId: bob.user.userId, targetUserId: alice.user.userId });
      await alice.stomp.send(app.callAnswer, { targetUserId: bob.user.userId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
      expect(await event(bob.inbox.answer)).to.include({ userId: alice.user.userId, targetUserId: bob.user.userId });
      // And the caller again (an ICE restart).
      await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: { type: 'offer', sdp: 'v=0\r\na=ice-options:trickle\r\n' } });
      expect(await event(bob.inbox.offer)).to.include({ userId: alice.user.userId });
    });

    it('relays a media state to the peer of an active call only, and drops it silently otherwise', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(bob.inbox.incoming);
      // Still ringing: dropped, and the sender's connection stays up.
      await alice.stomp.send(app.callMediaState, { targetUserId: bob.user.userId, muted: true, camera: false, screen: false });
      await bob.inbox['media-state'].nothingSoFar();
      await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
      await event(alice.inbox.accepted);
      await alice.stomp.send(app.callMediaState, { targetUserId: bob.user.userId, muted: true, camera: false, screen: false });
      expect(await event(bob.inbox['media-state'])).to.deep.equal({ userId: alice.user.userId, muted: true, camera: false, screen: false });
      await bob.stomp.send(app.callMediaState, { targetUserId: alice.user.userId, muted: false, camera: true, screen: true });
      expect(await event(alice.inbox['media-state'])).to.deep.equal({ userId: bob.user.userId, muted: false, camera: true, screen: true });
      const mallory = await party('Mallory');
      await mallory.stomp.send(app.callMediaState, { targetUserId: bob.user.userId, muted: true, camera: true, screen: true });
      await bob.inbox['media-state'].nothingSoFar();
    });

    it('refuses a media state without its three flags with an ERROR naming the missing one', async () => {
      const { alice, bob } = await activeCall();
      expect(await refused(alice.stomp.send(app.callMediaState, { targetUserId: bob.user.userId, muted: true, camera: false }))).to.match(/screen/);
    });
  });

  describe('a dropped connection during a call', () => {
    it('does not touch the call while another connection of the party remains', async () => {
      const { alice, bob } = await activeCall();
      // Bob's second browser: closing it leaves the call up.
      const secondBrowser = await loginClient(server, bob.user);
      const secondTab = await connectStomp(server, secondBrowser.cookieHeader());
      await secondTab.disconnect();
      // The server handles the closed socket after the client saw it close: a window.
      await alice.inbox['peer-reconnecting'].nothingWithin(QUIET_MS);
      await alice.inbox.hangup.nothingSoFar();
    });

    it('tells the peer the party is reconnecting, and resumes the call for both when the party subscribes again within the grace', async () => {
      const { alice, bob } = await activeCall();
      await drop(bob);
      expect(await event(alice.inbox['peer-reconnecting'])).to.deep.equal({ userId: bob.user.userId });
      // While Bob is away nothing is relayed to him.
      await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: 'v=0\r\n' });
      const back = await reconnect(bob);
      const toBob = await event(back.inbox.resume);
      expect(toBob).to.deep.equal({ userId: alice.user.userId, callId: toBob.callId, media: 'audio', role: 'callee' });
      expect(await event(alice.inbox.resume)).to.deep.equal({ userId: bob.user.userId, callId: toBob.callId, media: 'audio', role: 'caller' });
      await back.inbox.offer.nothingSoFar();
      // The caller offers again; the call goes on past the grace.
      await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: { type: 'offer', sdp: 'v=0\r\n' } });
      expect(await event(back.inbox.offer)).to.include({ userId: alice.user.userId });
      await alice.inbox.hangup.nothingWithin(GRACE_MS + QUIET_MS);
      await back.stomp.send(app.callAnswer, { targetUserId: alice.user.userId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
      expect(await event(alice.inbox.answer)).to.include({ userId: bob.user.userId });
    });

    it('resumes the call when the caller is the one who comes back, telling it to offer', async () => {
      const { alice, bob } = await activeCall();
      await drop(alice);
      expect(await event(bob.inbox['peer-reconnecting'])).to.deep.equal({ userId: alice.user.userId });
      const back = await reconnect(alice);
      expect(await event(back.inbox.resume)).to.include({ userId: bob.user.userId, role: 'caller' });
      expect(await event(bob.inbox.resume)).to.include({ userId: alice.user.userId, role: 'callee' });
    });

    it('ends the call with connection-lost to the peer when the grace passes, and frees both', async () => {
      const { alice, bob } = await activeCall();
      await drop(bob);
      expect(await event(alice.inbox['peer-reconnecting'])).to.deep.equal({ userId: bob.user.userId });
      expect(await event(alice.inbox.hangup)).to.deep.equal({ userId: bob.user.userId, targetUserId: bob.user.userId, reason: 'connection-lost' });
      // Coming back after the grace resumes nothing, and both can call again.
      const back = await reconnect(bob);
      await back.inbox.resume.nothingWithin(QUIET_MS);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      expect(await event(back.inbox.incoming)).to.include({ userId: alice.user.userId });
    });

    it('still ends a ringing call at once when its caller’s connection drops', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(bob.inbox.incoming);
      await drop(alice);
      expect(await event(bob.inbox.hangup)).to.deep.equal({ userId: alice.user.userId, targetUserId: alice.user.userId, reason: 'disconnected' });
    });
  });

  describe('the original client (SPEC §7 shapes, no media field, no new subscriptions)', () => {
    it('makes, connects and ends a voice call with the original shapes', async () => {
      const [alice, bob] = await Promise.all([party('Alice', ORIGINAL_CALL_SIGNALS), party('Bob', ORIGINAL_CALL_SIGNALS)]);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, userId: alice.user.userId });
      expect(await event(bob.inbox.incoming)).to.include({ userId: alice.user.userId, name: 'Alice' });
      await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId, userId: bob.user.userId });
      expect(await event(alice.inbox.accepted)).to.include({ userId: bob.user.userId });
      await alice.stomp.send(app.callOffer, { targetUserId: bob.user.userId, sdp: { type: 'offer', sdp: 'v=0\r\n' } });
      expect(await event(bob.inbox.offer)).to.deep.equal({ sdp: { type: 'offer', sdp: 'v=0\r\n' }, userId: alice.user.userId, targetUserId: bob.user.userId });
      await bob.stomp.send(app.callAnswer, { targetUserId: alice.user.userId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
      expect(await event(alice.inbox.answer)).to.deep.equal({ sdp: { type: 'answer', sdp: 'v=0\r\n' }, userId: bob.user.userId, targetUserId: alice.user.userId });
      await bob.stomp.send(app.callHangup, { targetUserId: alice.user.userId });
      expect(await event(alice.inbox.hangup)).to.deep.equal({ userId: bob.user.userId, targetUserId: bob.user.userId });
    });

    it('is never resumed by a reload: the peer hears connection-lost once the grace passes', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob', ORIGINAL_CALL_SIGNALS)]);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(bob.inbox.incoming);
      await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
      await event(alice.inbox.accepted);
      await drop(bob);
      await event(alice.inbox['peer-reconnecting']);
      // The reloaded original page subscribes to its queues, without resume: it knows no call.
      await reconnect(bob, ORIGINAL_CALL_SIGNALS);
      expect(await event(alice.inbox.hangup)).to.include({ userId: bob.user.userId, reason: 'connection-lost' });
      await alice.inbox.resume.nothingSoFar();
    });
  });

  describe('the call record', () => {
    /** The two people's room, opened by the first, its topic subscribed by the first's connection. */
    async function roomOf(a: Party, b: Party): Promise<{ roomId: number; topic: Inbox }> {
      const res = await a.client.post(api.roomCreate, { targetUserId: b.user.userId });
      expect(res.status, res.text).to.equal(200);
      const roomId = res.body.chatRoomId as number;
      return { roomId, topic: await a.stomp.subscribe(topics.privateChat(roomId)) };
    }

    async function record(topic: Inbox): Promise<ChatMessageEvent> {
      const message = (await topic.next()).json<ChatMessageEvent>();
      expect(message.senderId).to.equal(null);
      return message;
    }

    const callEvent = (caller: Party, rest: Omit<CallSystemEvent, 'type' | 'actorUserId' | 'actorName' | 'callerUserId'>): CallSystemEvent => ({
      type: 'call', actorUserId: caller.user.userId, actorName: caller.user.name, callerUserId: caller.user.userId, ...rest,
    });

    it('tells an answered call with its length from the accept to the hang-up', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      const { topic } = await roomOf(alice, bob);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, media: 'video' });
      await event(bob.inbox.incoming);
      clockMs += 5000;
      await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
      await event(alice.inbox.accepted);
      clockMs += 3723_000;
      await bob.stomp.send(app.callHangup, { targetUserId: alice.user.userId });
      const message = await record(topic);
      expect(message.content).to.equal('영상통화 01:02:03');
      expect(message.systemEvent).to.deep.equal(callEvent(alice, { media: 'video', outcome: 'answered', durationSec: 3723 }));
    });

    it('tells a call that rang out as missed', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      const { topic } = await roomOf(alice, bob);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(alice.inbox.hangup);
      const message = await record(topic);
      expect(message.content).to.equal('음성통화 (응답 없음)');
      expect(message.systemEvent).to.deep.equal(callEvent(alice, { media: 'audio', outcome: 'missed', durationSec: 0 }));
    });

    it('tells a call the callee turned down as rejected', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      const { topic } = await roomOf(alice, bob);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(bob.inbox.incoming);
      await bob.stomp.send(app.callReject, { targetUserId: alice.user.userId });
      const message = await record(topic);
      expect(message.content).to.equal('음성통화 (거절됨)');
      expect(message.systemEvent).to.deep.equal(callEvent(alice, { media: 'audio', outcome: 'rejected', durationSec: 0 }));
    });

    it('tells a call its caller hung up while it rang as cancelled', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      const { topic } = await roomOf(alice, bob);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId, media: 'video' });
      await event(bob.inbox.incoming);
      await alice.stomp.send(app.callHangup, { targetUserId: bob.user.userId });
      const message = await record(topic);
      expect(message.content).to.equal('영상통화 (취소됨)');
      expect(message.systemEvent).to.deep.equal(callEvent(alice, { media: 'video', outcome: 'cancelled', durationSec: 0 }));
    });

    it('leaves a missed call for a callee who was busy, in the room of the two', async () => {
      const { bob } = await activeCall();
      const carol = await party('Carol');
      const { topic } = await roomOf(carol, bob);
      await carol.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      expect(await event(carol.inbox.rejected)).to.include({ reason: 'busy' });
      const message = await record(topic);
      expect(message.content).to.equal('음성통화 (응답 없음)');
      expect(message.systemEvent).to.deep.equal(callEvent(carol, { media: 'audio', outcome: 'missed', durationSec: 0 }));
    });

    it('counts a call that lost its connection as answered until the connection was lost', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      const { topic } = await roomOf(alice, bob);
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(bob.inbox.incoming);
      await bob.stomp.send(app.callAccept, { targetUserId: alice.user.userId });
      await event(alice.inbox.accepted);
      clockMs += 38_000;
      await drop(bob);
      await event(alice.inbox['peer-reconnecting']);
      clockMs += 30_000;
      expect(await event(alice.inbox.hangup)).to.include({ reason: 'connection-lost' });
      const message = await record(topic);
      expect(message.content).to.equal('음성통화 00:38');
      expect(message.systemEvent).to.deep.equal(callEvent(alice, { media: 'audio', outcome: 'answered', durationSec: 38 }));
    });

    it('makes the two people’s room when they have none, and tells both of it', async () => {
      const [alice, bob] = await Promise.all([party('Alice'), party('Bob')]);
      const refresh = await bob.stomp.subscribe(topics.toggleRefresh(bob.user.userId));
      await alice.stomp.send(app.callInitiate, { targetUserId: bob.user.userId });
      await event(bob.inbox.incoming);
      await bob.stomp.send(app.callReject, { targetUserId: alice.user.userId });
      expect((await refresh.next()).body).to.equal('true');
      const chats = await bob.client.get<Array<{ chatRoomId: number; lastMessage: string | null; memberCount?: number }>>(api.chats);
      expect(chats.body.map((c) => [c.lastMessage, c.memberCount])).to.deep.equal([['음성통화 (거절됨)', 2]]);
    });
  });

  describe('GET /api/calls', () => {
    /** Calls from one to the other while the other is offline: each is recorded at once, missed. */
    async function unreachableCalls(from: Party, to: TestUser, count: number): Promise<void> {
      for (let i = 0; i < count; i++) {
        await from.stomp.send(app.callInitiate, { targetUserId: to.userId, media: i % 2 === 0 ? 'audio' : 'video' });
        expect(await event(from.inbox.hangup)).to.include({ reason: 'unavailable' });
      }
    }

    it('lists the user’s own calls newest first, from either side, a page at a time', async () => {
      const [alice, carol] = await Promise.all([party('Alice'), party('Carol')]);
      const { user: bob, client: bobClient } = await newLoggedInUser(server, { name: 'Bob' });
      await unreachableCalls(alice, bob, 3);
      // Records are written after the hang-up: Alice's are in before Carol calls.
      await eventually(async () => expect((await bobClient.get<CallsResponse>(api.calls)).body.calls).to.have.length(3));
      await unreachableCalls(carol, bob, 1);
      let first: CallsResponse = { calls: [], hasMore: false };
      await eventually(async () => {
        first = (await bobClient.get<CallsResponse>(`${api.calls}?limit=3`)).body;
        expect(first.calls).to.have.length(3);
        expect(first.calls[0].peerName).to.equal('Carol');
      });
      expect(first.hasMore).to.equal(true);
      expect(first.calls[0]).to.deep.equal({
        callId: first.calls[0].callId, peerUserId: carol.user.userId, peerName: 'Carol', peerPhotoVersion: null, media: 'audio', direction: 'incoming',
        outcome: 'missed', startedAt: new Date(NOW_MS).toISOString(), durationSec: 0,
      });
      expect(first.calls.map((c) => c.callId)).to.deep.equal([...first.calls.map((c) => c.callId)].sort((a, b) => b - a));
      const rest = (await bobClient.get<CallsResponse>(`${api.calls}?limit=3&before=${first.calls[2].callId}`)).body;
      expect(rest.hasMore).to.equal(false);
      expect(rest.calls.map((c) => [c.peerName, c.media, c.direction])).to.deep.equal([['Alice', 'audio', 'incoming']]);
      // Alice sees her side of the same calls, and nobody else's.
      const mine = (await alice.client.get<CallsResponse>(api.calls)).body;
      expect(mine.calls.map((c) => [c.peerUserId, c.direction, c.media])).to.deep.equal([
        [bob.userId, 'outgoing', 'audio'], [bob.userId, 'outgoing', 'video'], [bob.userId, 'outgoing', 'audio'],
      ]);
      expect(mine.hasMore).to.equal(false);
      // Records that came close together found one room of the two, and made no second.
      expect((await bobClient.get<unknown[]>(api.chats)).body).to.have.length(2);
      const dave = await newLoggedInUser(server, { name: 'Dave' });
      expect((await dave.client.get<CallsResponse>(api.calls)).body).to.deep.equal({ calls: [], hasMore: false });
    });

    it('answers 400 to a malformed before or limit, and 401 when signed out', async () => {
      const { client } = await newLoggedInUser(server);
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=', 'limit=1.5', 'before=0', 'before=x', 'before=', 'before=-3']) {
        const res = await client.get(`${api.calls}?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.message, query).to.match(/limit|before/);
      }
      expect((await client.get(`${api.calls}?limit=100`)).status).to.equal(200);
      expect((await new ApiClient(server.url).get(api.calls)).status).to.equal(401);
    });
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
