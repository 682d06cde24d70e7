import { expect } from 'chai';
import { slotOf } from '../../../src/load/scenario';
import { messagesOffered } from '../../../src/load/schedule';
import { planWorkers, scaleSchedule } from '../../../src/load/workers';

describe('load workers plan', () => {
  it('gives each worker whole rooms, contiguous, every client exactly once', () => {
    for (const [clients, rooms, workers] of [[23, 5, 2], [1000, 100, 3], [6, 3, 3], [10, 7, 4]]) {
      const plans = planWorkers(clients, rooms, workers);
      expect(plans.reduce((n, p) => n + p.clients, 0)).to.equal(clients);
      expect(plans.reduce((n, p) => n + p.rooms, 0)).to.equal(rooms);
      plans.forEach((p, k) => {
        if (k > 0) expect(p.first).to.equal(plans[k - 1].first + plans[k - 1].clients);
        // The worker's clients are exactly the members of its rooms in the whole run.
        for (let i = p.first; i < p.first + p.clients; i++) {
          expect(slotOf(i, clients, rooms)).to.be.within(p.roomOffset, p.roomOffset + p.rooms - 1);
        }
      });
    }
    expect(() => planWorkers(10, 2, 3)).to.throw(/--workers 3 needs at least 3 --rooms/);
  });

  it('scales the schedule by the worker’s share of the clients, so the shares add up to the whole', () => {
    const s = { ratePerSecond: 30, durationSeconds: 2, rampSeconds: 0 };
    expect(messagesOffered(scaleSchedule(s, 1 / 3)) + messagesOffered(scaleSchedule(s, 2 / 3))).to.equal(messagesOffered(s));
    const staged = { ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0, stages: [{ seconds: 2, target: 40 }, { seconds: 2, target: 0 }] };
    expect(scaleSchedule(staged, 0.5).stages).to.deep.equal([{ seconds: 2, target: 20 }, { seconds: 2, target: 0 }]);
  });
});
