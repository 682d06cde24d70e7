import { expect } from 'chai';
import { ReadThrottle, type ReadFrame } from '../../../src/load/read-throttle';

const read = (seq: number): ReadFrame => ({ destination: '/app/read', body: `{"seq":${seq}}`, seq });

describe('ReadThrottle', () => {
  let now: number;
  let sent: Array<[number, number]>;
  let throttle: ReadThrottle;
  beforeEach(() => {
    now = 0;
    sent = [];
    throttle = new ReadThrottle(1000, (client, r) => sent.push([client, r.seq]), () => now);
  });
  afterEach(() => throttle.stop());

  it('sends a session\'s first read at once, then the newest of each interval, per session', () => {
    throttle.offer(1, read(3));
    throttle.offer(2, read(3));
    throttle.offer(1, read(5));
    throttle.offer(1, read(4));
    expect(sent).to.deep.equal([[1, 3], [2, 3]]);
    now = 999;
    throttle.flushDue();
    expect(sent).to.have.length(2);
    now = 1000;
    throttle.flushDue();
    expect(sent).to.deep.equal([[1, 3], [2, 3], [1, 5]]);
    now = 2500;
    throttle.offer(1, read(6));
    expect(sent.at(-1)).to.deep.equal([1, 6]);
  });

  it('never sends a seq at or below one it sent', () => {
    throttle.offer(1, read(5));
    now = 5000;
    throttle.offer(1, read(4));
    throttle.offer(1, read(5));
    throttle.flushDue();
    expect(sent).to.deep.equal([[1, 5]]);
  });

  it('sends one read per message with interval 0', () => {
    const each = new ReadThrottle(0, (client, r) => sent.push([client, r.seq]), () => now);
    each.offer(1, read(1));
    each.offer(1, read(2));
    each.offer(1, read(3));
    expect(sent).to.deep.equal([[1, 1], [1, 2], [1, 3]]);
  });
});
