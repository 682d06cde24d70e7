import { expect } from 'chai';
import { PresenceTracker } from '../../../src/features/chat/presence-tracker';

describe('PresenceTracker', () => {
  it('counts a user as active in a room while any of their connections is', () => {
    const t = new PresenceTracker();
    t.activate('c1', 5, 10);
    t.activate('c2', 5, 10);
    t.activate('c3', 6, 10);
    expect(t.activeUsers(10).sort()).to.deep.equal([5, 6]);
    t.deactivate('c1', 10);
    expect(t.activeUsers(10).sort()).to.deep.equal([5, 6]);
    t.deactivate('c2', 10);
    expect(t.activeUsers(10)).to.deep.equal([6]);
  });

  it('ignores a repeated activation of the same connection', () => {
    const t = new PresenceTracker();
    t.activate('c1', 5, 10);
    t.activate('c1', 5, 10);
    t.deactivate('c1', 10);
    expect(t.activeUsers(10)).to.deep.equal([]);
  });

  it('forgets every room of a closed connection', () => {
    const t = new PresenceTracker();
    t.activate('c1', 5, 10);
    t.activate('c1', 5, 11);
    t.activate('c2', 6, 11);
    t.drop('c1');
    expect(t.activeUsers(10)).to.deep.equal([]);
    expect(t.activeUsers(11)).to.deep.equal([6]);
  });

  it('forgets a user who left the room on all their connections', () => {
    const t = new PresenceTracker();
    t.activate('c1', 5, 10);
    t.activate('c2', 5, 10);
    t.activate('c2', 5, 12);
    t.removeUser(5, 10);
    expect(t.activeUsers(10)).to.deep.equal([]);
    expect(t.activeUsers(12)).to.deep.equal([5]);
  });
});
