import { expect } from 'chai';
import type { nonstandard } from 'wrtc';
import { FRAME_SAMPLES, TonePlayer, toneCycle, toneFrame } from '../../../src/caller/tone';

describe('the tone source', () => {
  it('makes 10 ms frames of 48 kHz mono', () => {
    expect(FRAME_SAMPLES).to.equal(480);
    expect(toneFrame(440, 0)).to.have.length(480);
  });

  it('continues the sine without a jump from one frame to the next', () => {
    const a = toneFrame(440, 0);
    const b = toneFrame(440, 1);
    const step = Math.abs(b[0] - a[479]);
    // The largest step of a 440 Hz sine of amplitude 8000 between samples is about 460.
    expect(step).to.be.below(500);
  });
});

describe('the shared tone frames and clock (harness call --pairs)', () => {
  const close = (a: Int16Array, b: Int16Array) => a.every((v, i) => Math.abs(v - b[i]) <= 1);

  it('keeps one cycle of frames per tone: 440 Hz repeats every 5 frames, 550 Hz every 2', () => {
    const cycle = toneCycle(440)!;
    expect(cycle).to.have.length(5);
    expect(toneCycle(550)).to.have.length(2);
    for (const i of [0, 3, 7, 123]) expect(close(cycle[i % 5], toneFrame(440, i)), `frame ${i}`).to.equal(true);
    // Shared: the same arrays for every player of the tone.
    expect(toneCycle(440)).to.equal(cycle);
  });

  it('computes a tone that does not repeat within a second frame by frame instead', () => {
    expect(toneCycle(440.01)).to.equal(null);
  });

  it('sends every player the continuous sine of its own tone, from one clock', () => {
    const received: Record<number, Int16Array[]> = { 440: [], 660: [] };
    const source = (hz: number) => ({ onData: (d: { samples: Int16Array }) => void received[hz].push(d.samples) }) as unknown as nonstandard.RTCAudioSource;
    const players = [new TonePlayer(source(440), 440), new TonePlayer(source(660), 660)];
    try {
      for (const p of players) p.start();
      // 120 ms of frames owed, sent without waiting for the clock.
      for (const p of players) p.pump(performance.now() + 120);
    } finally {
      for (const p of players) p.stop();
    }
    for (const hz of [440, 660]) {
      expect(received[hz].length).to.be.at.least(12);
      received[hz].forEach((frame, i) => expect(close(frame, toneFrame(hz, i)), `${hz} Hz frame ${i}`).to.equal(true));
    }
  });
});
