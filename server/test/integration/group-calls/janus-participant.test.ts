// A subscription Janus refuses must leave the participant able to subscribe later. Here B's
// first subscription names A, who leaves while it is on its way: Janus refuses it ('No such
// feed'). B then must still hear C, who publishes after. Before the fix, B kept a subscriber
// handle that had never joined and every later change of its subscription failed on it: B
// heard nobody for the rest of the call (one way the group-call harness' participant 4 heard
// nobody under load, where such refusals and timeouts happen). Real Janus from Debian, real
// wrtc publishers.
import crypto from 'node:crypto';
import { expect } from 'chai';
import { newAudioSource, newPeerConnection } from '../../../../protocol-harness/src/caller/native-media';
import type { GroupCallCandidate, GroupCallStream } from '@common/group-call';
import { JanusParticipant } from '../../../src/features/group-calls/janus-participant';
import { createLogger } from '../../../src/log';
import { EmbeddedJanus, janusInstalled } from '../../../src/media/embedded-janus';
import { JanusSession } from '../../../src/media/janus-client';
import { IN_CI } from '../../support/databases';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await pause(50);
  }
  return true;
}


/** A participant whose wrtc publisher is up (Janus answered its offer, ICE and DTLS done). */
async function publishing(session: JanusSession, room: number, pin: string, userId: number, closers: Array<() => unknown>): Promise<JanusParticipant> {
  const janusCandidates: Array<GroupCallCandidate | null> = [];
  let answer = '';
  const participant = await JanusParticipant.join(session, room, pin, userId, `user ${userId}`, {
    publishAnswer: (sdp) => (answer = sdp),
    subscribeOffer: () => undefined,
    candidate: (target, c) => target === 'publisher' && janusCandidates.push(c),
  });
  closers.push(() => participant.leave());
  const pc = newPeerConnection({ iceServers: [] });
  closers.push(() => pc.close());
  const source = newAudioSource();
  pc.addTransceiver(source.createTrack(), { direction: 'sendonly' });
  const own: Array<GroupCallCandidate | null> = [];
  pc.onicecandidate = (e: { candidate: GroupCallCandidate | null }) => own.push(e.candidate);
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  await participant.publish(offer.sdp ?? '');
  expect(answer, 'Janus answered the publish').to.not.equal('');
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  // Janus trickles no mid, only the m-line's index; wrtc refuses a null sdpMid (a browser reads it as the index).
  for (const c of janusCandidates) if (c) await pc.addIceCandidate(c.sdpMid === null ? { candidate: c.candidate, sdpMLineIndex: c.sdpMLineIndex } : c);
  await until(() => own.includes(null), 5000);
  for (const c of own) await participant.trickle('publisher', c && { candidate: c.candidate, sdpMid: c.sdpMid, sdpMLineIndex: c.sdpMLineIndex });
  expect(await until(() => pc.connectionState === 'connected', 10_000), `publisher ${userId}: ${pc.connectionState}`).to.equal(true);
  return participant;
}

describe('JanusParticipant against a real Janus', function () {
  let janus: EmbeddedJanus | null = null;
  let session: JanusSession | null = null;
  const closers: Array<() => unknown> = [];

  before(async function () {
    if (!janusInstalled('janus')) {
      if (IN_CI) throw new Error('janus is not installed: CI must run every test');
      console.warn('\n  !!! SKIPPING JanusParticipant: janus is not installed (apt-get install janus)\n');
      this.skip();
    }
    janus = await EmbeddedJanus.start({ binary: 'janus', stunUrls: [], turnUrls: [], log: createLogger('silent') });
    session = await JanusSession.create(janus.url, janus.apiSecret, () => undefined);
  });

  after(async () => {
    for (const close of closers.reverse()) await close();
    await session?.destroy();
    await janus?.stop();
  });

  it('still subscribes to a later publisher after Janus refused its first subscription', async () => {
    const s = session!;
    const room = crypto.randomInt(1, 2 ** 47);
    const pin = crypto.randomBytes(18).toString('base64url');
    const admin = await s.attach();
    await admin.request({ request: 'create', room, secret: pin, pin, permanent: false, is_private: true, publishers: 10, audiocodec: 'opus', notify_joining: false });
    closers.push(() => admin.detach());

    const a = await publishing(s, room, pin, 1, closers);
    const offers: GroupCallStream[][] = [];
    const failures: Error[] = [];
    // B answers its offers as a browser does (an unanswered one holds back the next change).
    const receiver = newPeerConnection({ iceServers: [] });
    closers.push(() => receiver.close());
    let answering = Promise.resolve();
    const b: JanusParticipant = await JanusParticipant.join(s, room, pin, 2, 'b', {
      publishAnswer: () => undefined,
      subscribeOffer: (sdp, streams) => {
        offers.push(streams);
        answering = answering.then(async () => {
          await receiver.setRemoteDescription({ type: 'offer', sdp });
          const answer = await receiver.createAnswer();
          await receiver.setLocalDescription(answer);
          await b.answer(answer.sdp ?? '');
        });
      },
      candidate: () => undefined,
      subscribeFailed: (err) => failures.push(err),
    });
    closers.push(() => b.leave());
    // B's subscription to A (attach, then join: two round trips) races A's leave (one).
    await a.leave();
    await pause(500);

    await publishing(s, room, pin, 3, closers);
    const hearsC = await until(() => offers.some((streams) => streams.some((st) => st.userId === 3)), 10_000);
    expect(hearsC, `B was offered C's stream (offers: ${JSON.stringify(offers)}, failures: ${failures.map((e) => e.message).join('; ')})`).to.equal(true);
  });
});
