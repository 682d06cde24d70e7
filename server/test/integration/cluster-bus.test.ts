// The Redis bus on a private redis-server: delivery between nodes, in order, never echoed; a node
// listens to a channel in Redis only while it has listeners; a Redis restart is survived.
import { expect } from 'chai';
import { Redis } from 'ioredis';
import pino from 'pino';
import { RedisBus } from '../../src/cluster/redis-bus';
import { TestRedis } from '../support/cluster';
import { waitFor } from '../support/wait';

const log = pino({ level: 'silent' });

const until = (what: string, check: () => boolean | Promise<boolean>) => waitFor(check, what);

describe('the Redis cluster bus', function () {
  let redis: TestRedis;
  let admin: Redis;
  const buses: RedisBus[] = [];

  const bus = async (): Promise<{ bus: RedisBus; got: Array<[string, string]> }> => {
    const b = new RedisBus(redis.url, log);
    buses.push(b);
    const got: Array<[string, string]> = [];
    b.onMessage((channel, message) => got.push([channel, message]));
    await until('the bus is up', () => b.state === 'up');
    return { bus: b, got };
  };
  const channels = async () => (await admin.pubsub('CHANNELS', 'lc:*')) as string[];

  before(async () => {
    redis = await TestRedis.start();
    admin = new Redis(redis.url);
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });
  after(async () => {
    admin.disconnect();
    await redis.stop();
  });

  it('delivers what one node publishes to another listening node, in order, and not back to the sender', async () => {
    const [a, b] = [await bus(), await bus()];
    a.bus.listen('d:/topic/x');
    b.bus.listen('d:/topic/x');
    await until('both listen', async () => (await admin.pubsub('NUMSUB', 'lc:d:/topic/x'))[1] === 2);
    for (let i = 0; i < 100; i++) a.bus.publish('d:/topic/x', `m${i}`);
    await until('all arrived', () => b.got.length === 100);
    expect(b.got.map(([, m]) => m)).to.deep.equal(Array.from({ length: 100 }, (_, i) => `m${i}`));
    expect(a.got).to.deep.equal([]);
  });

  it('sends a burst on one channel as one PUBLISH, and keeps the order across channels', async () => {
    const [a, b] = [await bus(), await bus()];
    for (const c of ['d:/topic/x', 'u:7']) b.bus.listen(c);
    await until('listening', async () => (await admin.pubsub('NUMSUB', 'lc:d:/topic/x', 'lc:u:7'))[3] === 1);
    // ioredis's monitor() opens a connection of its own in MONITOR mode.
    const monitor = await admin.monitor();
    const published: string[] = [];
    monitor.on('monitor', (_t: string, args: string[]) => args[0]?.toLowerCase() === 'publish' && published.push(args[1]));
    // Texts holding the batch framing's own characters come through whole.
    const sent: Array<[string, string]> = [
      ['d:/topic/x', 'one'], ['d:/topic/x', 'two\u001f3\u001f*'], ['d:/topic/x', ''], ['u:7', 'unsub'], ['d:/topic/x', 'after'], ['u:7', '한글 ✓'],
    ];
    for (const [c, m] of sent) a.bus.publish(c, m);
    await until('all arrived', () => b.got.length === sent.length);
    expect(b.got).to.deep.equal(sent);
    // Runs of one channel merged, never across channels: x (3), u:7, x, u:7.
    await until('monitor saw the publishes', () => published.length >= 4);
    expect(published).to.deep.equal(['lc:d:/topic/x', 'lc:u:7', 'lc:d:/topic/x', 'lc:u:7']);
    monitor.disconnect();
  });

  it('listens to a channel in Redis only while the node has a listener for it', async () => {
    const { bus: b } = await bus();
    b.listen('d:/topic/private-chat/1');
    b.listen('d:/topic/private-chat/1');
    await until('subscribed', async () => (await channels()).includes('lc:d:/topic/private-chat/1'));
    b.unlisten('d:/topic/private-chat/1');
    // The listener's commands reach Redis in order: once a later SUBSCRIBE took effect, an
    // UNSUBSCRIBE sent by that unlisten would have too.
    b.listen('d:/topic/barrier');
    await until('the later channel subscribed', async () => (await channels()).includes('lc:d:/topic/barrier'));
    expect(await channels()).to.include('lc:d:/topic/private-chat/1');
    b.unlisten('d:/topic/private-chat/1');
    await until('unsubscribed', async () => !(await channels()).includes('lc:d:/topic/private-chat/1'));
  });

  it('survives a Redis restart: down meanwhile, told when back, listening again', async () => {
    const [a, b] = [await bus(), await bus()];
    let reconnects = 0;
    b.bus.onReconnect(() => reconnects++);
    b.bus.listen('u:7');
    await until('subscribed', async () => (await channels()).includes('lc:u:7'));
    await redis.stop();
    await until('both see the bus down', () => a.bus.state === 'down' && b.bus.state === 'down');
    a.bus.publish('u:7', 'lost');
    expect(a.bus.dropped).to.equal(1);
    await redis.start();
    await until('both back', () => a.bus.state === 'up' && b.bus.state === 'up');
    // Told once its SUBSCRIBEs are answered again (a PING after them), a moment after 'up'.
    await until('told when back', () => reconnects > 0);
    await until('listening again', async () => (await channels().catch(() => [] as string[])).includes('lc:u:7'));
    a.bus.publish('u:7', 'after');
    await until('delivered', () => b.got.length === 1);
    expect(b.got).to.deep.equal([['u:7', 'after']]);
    expect(reconnects).to.equal(1);
  });
});
