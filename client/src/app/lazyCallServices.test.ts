// The RTC service and the ringer as the late services hand them out: their browser code loads on
// first use, once, again after a failed load, and a stop while the ringer loads starts no tone.
import { expect } from 'chai';
import type { RingStart, RingTone, Ringer } from '../services/ringer';
import type { LocalMedia, Peer, RtcService } from '../services/rtc';
import { lazyRinger, lazyRtc } from './lazyCallServices';

/** A load that resolves or fails when the test says. */
function controlledLoad<T>() {
  const calls: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
  const load = () => new Promise<T>((resolve, reject) => calls.push({ resolve, reject }));
  return { load, calls };
}

class RecordingRinger implements Ringer {
  readonly log: string[] = [];
  start(tone: RingTone): Promise<RingStart> {
    this.log.push(`start ${tone}`);
    return Promise.resolve('playing');
  }
  stop(): void {
    this.log.push('stop');
  }
  whenUnblocked(): Promise<void> {
    return Promise.resolve();
  }
}

const media = { cameraOn: false } as LocalMedia;
const peer = {} as Peer;

describe('the call services loaded on first use', () => {
  it('loads the RTC service on the first openMedia only, and connects through the loaded one', async () => {
    const { load, calls } = controlledLoad<RtcService>();
    const rtc = lazyRtc(load);
    expect(calls).to.have.length(0);
    expect(() => rtc.createPeer([], media)).to.throw('media was not opened by this service');
    const opened = rtc.openMedia(true);
    const asked: unknown[] = [];
    calls[0].resolve({
      openMedia: (video) => (asked.push(video), Promise.resolve(media)),
      createPeer: (servers, local) => (asked.push(servers, local), peer),
    });
    expect(await opened).to.equal(media);
    await rtc.openMedia(false);
    expect(calls).to.have.length(1);
    expect(rtc.createPeer([{ urls: 'stun:x' }], media)).to.equal(peer);
    expect(asked).to.deep.equal([true, false, [{ urls: 'stun:x' }], media]);
  });

  it('tries the load again on the next call after one failed', async () => {
    const { load, calls } = controlledLoad<RtcService>();
    const rtc = lazyRtc(load);
    const first = rtc.openMedia(false);
    calls[0].reject(new Error('offline'));
    let failure: unknown = null;
    await first.catch((error: unknown) => (failure = error));
    expect((failure as Error).message).to.equal('offline');
    const second = rtc.openMedia(false);
    expect(calls).to.have.length(2);
    calls[1].resolve({ openMedia: () => Promise.resolve(media), createPeer: () => peer });
    expect(await second).to.equal(media);
  });

  it('starts no tone when the ringing was stopped while the ringer loaded, and rings on the next start', async () => {
    const { load, calls } = controlledLoad<Ringer>();
    const ringer = lazyRinger(load);
    const started = ringer.start('ringing');
    ringer.stop();
    const real = new RecordingRinger();
    calls[0].resolve(real);
    expect(await started).to.equal('playing');
    expect(real.log).to.deep.equal([]);
    expect(await ringer.start('ringback')).to.equal('playing');
    ringer.stop();
    expect(real.log).to.deep.equal(['start ringback', 'stop']);
  });

  it('answers unavailable, never rejecting, when the ringer cannot load', async () => {
    const { load, calls } = controlledLoad<Ringer>();
    const ringer = lazyRinger(load);
    const started = ringer.start('ringing');
    calls[0].reject(new Error('offline'));
    expect(await started).to.equal('unavailable');
  });
});
