import { expect } from 'chai';
import { averageRate, messagesDue, messagesOffered, parseStages, scheduleSeconds } from '../../../src/load/schedule';

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

  it('follows arrival-rate stages, each rising or falling linearly from the previous rate', () => {
    const stages = parseStages('30s:500,60s:2000,30s:0');
    expect(stages).to.deep.equal([
      { seconds: 30, target: 500 },
      { seconds: 60, target: 2000 },
      { seconds: 30, target: 0 },
    ]);
    const s = { ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0, stages };
    expect(scheduleSeconds(s)).to.equal(120);
    expect(messagesDue(s, 30)).to.equal(7500); // 0 → 500 over 30 s
    expect(messagesDue(s, 90)).to.equal(7500 + 75_000); // 500 → 2000 over 60 s
    expect(messagesOffered(s)).to.equal(7500 + 75_000 + 30_000); // 2000 → 0 over 30 s
    expect(averageRate(s)).to.be.closeTo(112_500 / 120, 1e-9);
    expect(messagesDue(s, 200)).to.equal(messagesOffered(s));
  });

  it('holds a rate over a stage whose target equals the previous one, and reads ms, m and bare seconds', () => {
    const s = { ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0, stages: parseStages('500ms:100,1m:100,2:0') };
    expect(scheduleSeconds(s)).to.be.closeTo(62.5, 1e-9);
    expect(messagesDue(s, 0.5)).to.equal(25);
    expect(messagesDue(s, 60.5)).to.equal(25 + 6000);
    expect(messagesOffered(s)).to.equal(25 + 6000 + 100);
    expect(() => parseStages('30s')).to.throw(/DURATION:RATE/);
    expect(() => parseStages('0s:10')).to.throw(/above 0/);
  });
});

