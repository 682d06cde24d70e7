import { expect } from 'chai';
import sinon from 'sinon';
import { CANDIDATE_INTERVAL_MS, CANDIDATE_ROUNDS, CandidateBatcher } from '../../../src/caller/candidates';

describe('local candidate batching', () => {
  let clock: sinon.SinonFakeTimers;
  let sent: string[];
  let batcher: CandidateBatcher<string>;

  beforeEach(() => {
    clock = sinon.useFakeTimers();
    sent = [];
    batcher = new CandidateBatcher((c) => sent.push(c));
  });

  afterEach(() => {
    batcher.stop();
    clock.restore();
  });

  it('sends the first batch at once', () => {
    batcher.add('a');
    expect(sent).to.deep.equal(['a']);
  });

  it('queues later candidates and sends them every 250 ms', () => {
    batcher.add('a');
    batcher.add('b');
    batcher.add('c');
    expect(sent).to.deep.equal(['a']);
    clock.tick(CANDIDATE_INTERVAL_MS - 1);
    expect(sent).to.deep.equal(['a']);
    clock.tick(1);
    expect(sent).to.deep.equal(['a', 'b', 'c']);
    batcher.add('d');
    clock.tick(CANDIDATE_INTERVAL_MS);
    expect(sent).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('stops the 250 ms cadence after 60 rounds and then sends new candidates at once', () => {
    batcher.add('a');
    clock.tick(CANDIDATE_INTERVAL_MS * CANDIDATE_ROUNDS);
    expect(clock.countTimers()).to.equal(0);
    batcher.add('late');
    expect(sent).to.deep.equal(['a', 'late']);
  });

  it('sends nothing after it is stopped', () => {
    batcher.add('a');
    batcher.add('b');
    batcher.stop();
    clock.tick(CANDIDATE_INTERVAL_MS * 4);
    expect(sent).to.deep.equal(['a']);
  });

  it('starts no timer for a candidate gathered after the call ended', () => {
    batcher.add('a');
    batcher.stop();
    batcher.add('after the end');
    expect(clock.countTimers()).to.equal(0);
    clock.tick(CANDIDATE_INTERVAL_MS * 4);
    expect(sent).to.deep.equal(['a']);
  });
});
