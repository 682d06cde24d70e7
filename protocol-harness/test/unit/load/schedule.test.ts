import { expect } from 'chai';
import { messagesDue, messagesOffered } from '../../../src/load/schedule';

describe('load schedule', () => {
  it('offers rate × duration at a constant rate, spread evenly', () => {
    const s = { ratePerSecond: 200, durationSeconds: 10, rampSeconds: 0 };
    expect(messagesDue(s, 0)).to.equal(0);
    expect(messagesDue(s, 2.5)).to.equal(500);
    expect(messagesOffered(s)).to.equal(2000);
    expect(messagesDue(s, 99)).to.equal(2000);
  });

  it('ramps linearly from zero, offering half the full rate over the ramp', () => {
    const s = { ratePerSecond: 100, durationSeconds: 10, rampSeconds: 4 };
    expect(messagesDue(s, 2)).to.equal(50); // 100 × 2² / (2 × 4)
    expect(messagesDue(s, 4)).to.equal(200);
    expect(messagesOffered(s)).to.equal(800); // 200 ramping + 6 s × 100
  });

  it('never decreases', () => {
    const s = { ratePerSecond: 37, durationSeconds: 3, rampSeconds: 1.3 };
    let last = 0;
    for (let t = 0; t <= 4; t += 0.01) {
      const due = messagesDue(s, t);
      expect(due).to.be.at.least(last);
      last = due;
    }
  });
});
