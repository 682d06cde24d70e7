import { expect } from 'chai';
import { retryAfterMs, retryAfterSeconds } from '../../../src/features/accounts/rate-window';

const window = { limit: 3, windowMs: 5 * 60_000 };
const NOW = 1_000_000_000;

describe('the sliding rate window', () => {
  it('allows an event while fewer than the limit happened inside the window', () => {
    expect(retryAfterMs([], window, NOW)).to.equal(0);
    expect(retryAfterMs([NOW - 1000, NOW - 2000], window, NOW)).to.equal(0);
  });

  it('refuses once the limit is reached, until the oldest event that fills the window leaves it', () => {
    const times = [NOW - 4 * 60_000, NOW - 2 * 60_000, NOW - 60_000];
    expect(retryAfterMs(times, window, NOW)).to.equal(60_000);
  });

  it('looks only at the newest events when more than the limit are inside the window', () => {
    const times = [NOW - 4 * 60_000, NOW - 3 * 60_000, NOW - 2 * 60_000, NOW - 60_000];
    // The window is full until the event 3 minutes ago leaves it: 2 minutes from now.
    expect(retryAfterMs(times, window, NOW)).to.equal(2 * 60_000);
  });

  it('ignores events that have left the window, including one exactly at its edge', () => {
    expect(retryAfterMs([NOW - 5 * 60_000, NOW - 10 * 60_000, NOW - 1000, NOW - 2000], window, NOW)).to.equal(0);
  });

  it('does not depend on the order of the events', () => {
    const times = [NOW - 60_000, NOW - 4 * 60_000, NOW - 2 * 60_000];
    expect(retryAfterMs(times, window, NOW)).to.equal(retryAfterMs([...times].sort(), window, NOW));
  });

  it('rounds Retry-After up to whole seconds and never to 0', () => {
    expect(retryAfterSeconds(1)).to.equal(1);
    expect(retryAfterSeconds(1000)).to.equal(1);
    expect(retryAfterSeconds(1001)).to.equal(2);
    expect(retryAfterSeconds(0)).to.equal(1);
  });
});
