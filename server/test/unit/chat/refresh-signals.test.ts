import { expect } from 'chai';
import sinon from 'sinon';
import { topics } from '@common/destinations';
import { RefreshSignals } from '../../../src/features/chat/refresh-signals';

describe('RefreshSignals', () => {
  let clock: sinon.SinonFakeTimers;
  let published: string[];
  let signals: RefreshSignals;
  const publisher = { publish: (destination: string) => void published.push(destination) };
  beforeEach(() => {
    clock = sinon.useFakeTimers();
    published = [];
    signals = new RefreshSignals(publisher, 1000);
  });
  afterEach(() => {
    signals.stop();
    clock.restore();
  });

  it('signals a user at once, then once more after the interval for all that came during it, and each user apart', () => {
    signals.signal(1);
    signals.signal(2);
    signals.signal(1);
    signals.signal(1);
    expect(published).to.deep.equal([topics.toggleRefresh(1), topics.toggleRefresh(2)]);
    clock.tick(999);
    expect(published).to.have.length(2);
    clock.tick(1);
    expect(published).to.deep.equal([topics.toggleRefresh(1), topics.toggleRefresh(2), topics.toggleRefresh(1)]);
    clock.tick(5000);
    expect(published).to.have.length(3);
    signals.signal(2);
    expect(published.at(-1)).to.equal(topics.toggleRefresh(2));
  });

  it('drops what still waits when stopped', () => {
    signals.signal(1);
    signals.signal(1);
    signals.stop();
    clock.tick(5000);
    expect(published).to.deep.equal([topics.toggleRefresh(1)]);
  });
});
