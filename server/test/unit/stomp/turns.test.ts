// Turns shared between sessions with work waiting (stomp/turns.ts): one turn each per round, in
// order, sessions just woken first, a round cut short going on where it stopped.
import { expect } from 'chai';
import { Turns, type TakesTurns } from '../../../src/stomp/turns';
import { waitFor } from '../../support/wait';

/** Takes `turns` turns, noting each in `log`. */
function worker(name: string, turns: number, log: string[]): TakesTurns & { left: number } {
  return {
    left: turns,
    takeTurn() {
      log.push(name);
      return --this.left > 0;
    },
  };
}

describe('turns', () => {
  it('takes a turn at once when nobody waits, and gives the rest one turn a round, in order', async () => {
    const log: string[] = [];
    const turns = new Turns(() => {});
    const a = worker('a', 3, log);
    const b = worker('b', 2, log);
    turns.turnNowOrQueue(a);
    expect(log).to.deep.equal(['a']);
    turns.turnNowOrQueue(b); // a waits: b queues behind it
    expect(log).to.deep.equal(['a']);
    await waitFor(() => log.length === 5, 'every turn taken');
    expect(log.join('')).to.equal('abab' + 'a');
  });

  it('puts a session just woken before those back for more, and a round cut short goes on where it stopped', async () => {
    const log: string[] = [];
    // Every round stops after its first turn; each round is one setImmediate, queued before ours.
    const turns = new Turns(() => {}, 0);
    const round = () => new Promise((r) => setImmediate(r));
    turns.add(worker('a', 4, log));
    turns.add(worker('b', 4, log));
    await round();
    await round();
    expect(log.join('')).to.equal('ab');
    turns.add(worker('c', 1, log));
    for (let i = 0; i < 7; i++) await round();
    expect(log.join('')).to.equal('ab' + 'c' + 'ababab');
    expect(turns.idle).to.equal(true);
  });

  it('reports a turn that throws and goes on with the others', async () => {
    const errors: unknown[] = [];
    const log: string[] = [];
    const turns = new Turns((err) => errors.push(err));
    turns.add({
      takeTurn: () => {
        throw new Error('broken');
      },
    });
    turns.add(worker('b', 2, log));
    await waitFor(() => log.length === 2, 'b done');
    expect(errors).to.have.length(1);
  });
});
