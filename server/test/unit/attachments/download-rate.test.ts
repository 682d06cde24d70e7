import { expect } from 'chai';
import { utcDay } from '../../../src/features/attachments/attachments-service';
import { DownloadRate } from '../../../src/features/attachments/download-rate';

describe('attachments: the download rate and the quota\'s day', () => {
  it('lets a user start a burst of downloads, then one per 1/rate seconds, each user on their own bucket', () => {
    let now = 1_000_000;
    const rate = new DownloadRate({ perSecond: 4, burst: 3 }, () => now);
    expect([rate.take(1), rate.take(1), rate.take(1)]).to.deep.equal([0, 0, 0]);
    expect(rate.take(1)).to.equal(0.25);
    expect(rate.take(2), 'another user').to.equal(0);
    now += 250;
    expect(rate.take(1)).to.equal(0);
    expect(rate.take(1)).to.equal(0.25);
    now += 60_000;
    expect([rate.take(1), rate.take(1), rate.take(1), rate.take(1)].map((w) => w > 0)).to.deep.equal([false, false, false, true]);
  });

  it('counts the daily quota by UTC day', () => {
    expect(utcDay(Date.UTC(2026, 10, 26, 23, 59, 59))).to.equal(20261126);
    expect(utcDay(Date.UTC(2026, 10, 27, 0, 0, 0))).to.equal(20261127);
    expect(utcDay(Date.UTC(2027, 0, 1, 8))).to.equal(20270101);
  });
});
