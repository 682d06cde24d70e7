import { expect } from 'chai';
import type { StompPrincipal } from '../../../src/stomp/api';
import { MultiMap } from '../../../src/stomp/multimap';
import { createFeatureRouter } from '../../../src/stomp/router';

const user = (userId: number): StompPrincipal => ({ userId, authSessionId: 's', connectionId: 'c' });

describe('the STOMP router', () => {
  it('routes SEND to the one handler registered for an /app destination', () => {
    const handler = () => {};
    const router = createFeatureRouter([{ handlers: { '/app/a': handler } }]);
    expect(router.routeSend('/app/a')).to.deep.equal({ kind: 'handler', handler });
    expect(router.routeSend('/app/b').kind).to.equal('refused');
  });

  it('refuses client SENDs to /topic and /queue', () => {
    const router = createFeatureRouter([]);
    expect(router.routeSend('/topic/toggle-refresh/1').kind).to.equal('refused');
    expect(router.routeSend('/queue/call/offer/1').kind).to.equal('refused');
  });

  it('refuses a handler defined twice or outside /app/', () => {
    expect(() => createFeatureRouter([{ handlers: { '/app/a': () => {} } }, { handlers: { '/app/a': () => {} } }])).to.throw(/twice/);
    expect(() => createFeatureRouter([{ handlers: { '/topic/a': () => {} } }])).to.throw(/outside/);
  });

  it('allows a user’s own call queues and refresh topic, whatever the features say', async () => {
    const router = createFeatureRouter([{ authorize: () => true }]);
    expect(await router.authorize(user(5), '/queue/call/hangup/5')).to.equal(true);
    expect(await router.authorize(user(5), '/topic/toggle-refresh/5')).to.equal(true);
    expect(await router.authorize(user(5), '/queue/call/hangup/6')).to.equal(false);
    expect(await router.authorize(user(5), '/topic/toggle-refresh/6')).to.equal(false);
  });

  it('asks the features in order and takes the first answer; denies when none answers', async () => {
    const router = createFeatureRouter([
      { authorize: (_u, d) => (d === '/topic/private-chat/1' ? false : undefined) },
      { authorize: async (_u, d) => (d.startsWith('/topic/private-chat/') ? true : undefined) },
    ]);
    expect(await router.authorize(user(1), '/topic/private-chat/1')).to.equal(false);
    expect(await router.authorize(user(1), '/topic/private-chat/2')).to.equal(true);
    expect(await router.authorize(user(1), '/topic/anything')).to.equal(false);
  });
});

describe('MultiMap', () => {
  it('holds one value bare, several in a set, and counts and removes them', () => {
    const m = new MultiMap<string, { n: number }>();
    const a = { n: 1 };
    const b = { n: 2 };
    m.add('k', a);
    m.add('k', a);
    expect(m.count('k')).to.equal(1);
    m.add('k', b);
    expect(m.get('k')).to.deep.equal([a, b]);
    expect(m.has('k', b)).to.equal(true);
    expect(m.delete('k', a)).to.equal(true);
    expect(m.get('k')).to.deep.equal([b]);
    expect(m.delete('k', a)).to.equal(false);
    expect(m.delete('k', b)).to.equal(true);
    expect(m.count('k')).to.equal(0);
    expect(m.keys()).to.deep.equal([]);
  });
});
