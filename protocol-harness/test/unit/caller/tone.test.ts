import { expect } from 'chai';
import { FRAME_SAMPLES, toneFrame } from '../../../src/caller/tone';

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
