import { expect } from 'chai';
import { delayImpairment, estimateMos, lossImpairment, mosFromRating, rating } from '../../../src/caller/mos';

describe('E-model MOS estimate', () => {
  it('maps R to MOS by G.107 Annex B, clamped to 1…4.5', () => {
    expect(mosFromRating(-5)).to.equal(1);
    expect(mosFromRating(0)).to.equal(1);
    expect(mosFromRating(100)).to.equal(4.5);
    expect(mosFromRating(93.2)).to.be.closeTo(4.41, 0.01);
    expect(mosFromRating(50)).to.be.closeTo(2.58, 0.01);
  });

  it('charges delay gently up to 177.3 ms one way and steeply beyond', () => {
    expect(delayImpairment(0)).to.equal(0);
    expect(delayImpairment(100)).to.be.closeTo(2.4, 1e-9);
    expect(delayImpairment(277.3) - delayImpairment(177.3)).to.be.closeTo(2.4 + 11, 1e-9);
  });

  it('charges random loss by Ie-eff, rising fast then levelling towards 95', () => {
    expect(lossImpairment(0)).to.equal(0);
    expect(lossImpairment(10)).to.be.closeTo((95 * 10) / 30, 1e-9);
    expect(lossImpairment(100)).to.be.below(95);
    expect(lossImpairment(-3)).to.equal(0);
  });

  it('rates a clean call above 4.3, 10 % loss near 3, and falls with each impairment', () => {
    const clean = estimateMos({ rttMs: 2, jitterMs: 1, lossPct: 0 })!;
    const lossy = estimateMos({ rttMs: 2, jitterMs: 1, lossPct: 10 })!;
    const late = estimateMos({ rttMs: 600, jitterMs: 1, lossPct: 0 })!;
    expect(clean).to.be.above(4.3);
    expect(lossy).to.be.within(2.8, 3.4);
    expect(late).to.be.below(clean);
    expect(estimateMos({ rttMs: 2, jitterMs: 40, lossPct: 0 })).to.be.below(clean);
    expect(rating(0, 0)).to.equal(93.2);
  });

  it('gives no figure without a loss figure (no audio received)', () => {
    expect(estimateMos({ rttMs: 10, jitterMs: 1, lossPct: null })).to.equal(null);
  });

  it('prefers the measured jitter buffer over twice the jitter', () => {
    const byJitter = estimateMos({ rttMs: 0, jitterMs: 200, lossPct: 0 })!;
    const byBuffer = estimateMos({ rttMs: 0, jitterMs: 200, lossPct: 0, jitterBufferMs: 20 })!;
    expect(byBuffer).to.be.above(byJitter);
  });
});
