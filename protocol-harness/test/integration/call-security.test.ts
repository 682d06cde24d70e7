// A connected harness call under attack from a third signed-in user: injected offers, answers
// and candidates reach neither party and the call keeps carrying audio; a forged userId is
// refused with an ERROR.
import { expect } from 'chai';
import { app } from '@common/destinations';
import type { RunningServer } from '../../../server/src/main';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser } from '../../../server/test/support/users';
import { WAIT_MS, waitFor } from '../../../server/test/support/wait';
import { HeadlessCaller } from '../../src/caller/caller';
import { CALLEE_TONE_HZ, CALLER_TONE_HZ, THIRD_TONE_HZ } from '../../src/caller/scenarios';

/** Half a second of the tone (10 ms frames): the call still carries audio. */
const MORE_SOUND_FRAMES = 50;

forEachDatabase('a third user against a harness call', (db) => {
  let server: RunningServer;
  const callers: HeadlessCaller[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });

  afterEach(async () => {
    await Promise.allSettled(callers.splice(0).map((c) => c.close()));
  });

  after(async () => {
    await server?.stop();
  });

  async function open(label: string, toneHz: number, expectHz: number): Promise<HeadlessCaller> {
    const user = await createUser(server, { name: label });
    const caller = await HeadlessCaller.connect({ baseUrl: server.url, email: user.email, password: user.password, label, toneHz, expectHz, relayOnly: false });
    callers.push(caller);
    return caller;
  }

  it('cannot inject offers, answers or candidates, and the call keeps carrying audio', async () => {
    const alice = await open('caller', CALLER_TONE_HZ, CALLEE_TONE_HZ);
    const bob = await open('callee', CALLEE_TONE_HZ, CALLER_TONE_HZ);
    const mallory = await open('third', THIRD_TONE_HZ, CALLER_TONE_HZ);
    alice.initiate(bob.userId);
    await bob.waitFor('incoming', alice.userId, WAIT_MS);
    bob.accept(alice.userId);
    await alice.waitFor('accepted', bob.userId, WAIT_MS);
    await waitFor(() => [alice, bob].every((side) => side.peer?.meter.hearsTone()), 'both sides hearing the other');

    for (const victim of [alice, bob]) {
      const targetUserId = victim.userId;
      mallory.send(app.callOffer, { targetUserId, sdp: { type: 'offer', sdp: 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\n' } });
      mallory.send(app.callAnswer, { targetUserId, sdp: { type: 'answer', sdp: 'v=0\r\n' } });
      mallory.send(app.callIceCandidate, { targetUserId, candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 } });
    }
    const before = { alice: alice.peer!.meter.report().soundFrames, bob: bob.peer!.meter.report().soundFrames };
    // A barrier: the server handles a connection's frames in order, so once it answers Mallory's
    // next one (a call to Alice, busy), it has handled the injections, and any relay of them was
    // written to Alice's and Bob's sockets before. Half a second of sound more on each side has
    // them read those sockets many times over.
    mallory.send(app.callInitiate, { targetUserId: alice.userId, userId: mallory.userId });
    expect((await mallory.waitFor('rejected', alice.userId, WAIT_MS)).event.reason).to.equal('busy');
    await waitFor(() => alice.peer!.meter.report().soundFrames >= before.alice + MORE_SOUND_FRAMES && bob.peer!.meter.report().soundFrames >= before.bob + MORE_SOUND_FRAMES, 'both sides hearing more of the tone');

    for (const side of [alice, bob]) {
      expect(side.received.filter((e) => e.event.userId === mallory.userId), side.label).to.deep.equal([]);
      expect(side.peer!.connectionState).to.equal('connected');
      expect(side.problems).to.deep.equal([]);
    }
    expect(alice.peer!.meter.report().soundFrames).to.be.above(before.alice);
    expect(bob.peer!.meter.report().soundFrames).to.be.above(before.bob);
    expect(mallory.problems).to.deep.equal([]);
  });

  it('is refused when it names someone else as the caller, and nobody is rung', async () => {
    const alice = await open('caller', CALLER_TONE_HZ, CALLEE_TONE_HZ);
    const bob = await open('callee', CALLEE_TONE_HZ, CALLER_TONE_HZ);
    const mallory = await open('third', THIRD_TONE_HZ, CALLER_TONE_HZ);
    mallory.send(app.callInitiate, { targetUserId: bob.userId, userId: alice.userId });
    await waitFor(() => mallory.problems.length > 0, 'an ERROR frame');
    expect(mallory.problems.join('\n')).to.match(/STOMP ERROR: userId is not the signed-in user/);
    // A ring would have been sent to Bob's socket before the ERROR to Mallory's; a window for it
    // to be read, as Bob has no later event to wait for.
    expect(await bob.nothingWithin('incoming', 500)).to.equal(null);
  });
});
