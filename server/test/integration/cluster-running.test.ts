// Running several nodes as operators do: `WORKERS=2` on one port (SO_REUSEPORT), and Debian's
// HAProxy with deploy/haproxy.cfg in front of three nodes on different ports.
import http from 'node:http';
import { expect } from 'chai';
import { api } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import { freePort, HaproxyProcess, NodeProcess, useCluster } from '../support/cluster';
import { IN_CI } from '../support/databases';
import { within } from '../support/wait';

/** Which node answers a fresh connection's /healthz. */
function nodeBehind(url: string): Promise<string> {
  // A new TCP connection each time (fetch would reuse one).
  return new Promise((resolve, reject) => {
    http.get(`${url}${api.healthz}`, { agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        expect(res.statusCode).to.equal(200);
        resolve(((JSON.parse(text) as { node?: string }).node) ?? '');
      });
    }).on('error', reject);
  });
}

describe('running several nodes (MariaDB, Redis)', function () {
  // The tests start their own nodes: a WORKERS=2 supervisor, or three behind HAProxy.
  const cluster = useCluster({ nodes: 0 });

  /** Two users in one room, each connected through `url` until they land on different nodes. */
  async function chatAcrossNodes(url: string): Promise<void> {
    const [a, b] = await Promise.all([cluster.person({ url }, '에이'), cluster.person({ url }, '비')]);
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    const sender = await cluster.connect({ url }, a);
    const inboxes = [];
    // New connections spread over the nodes; several receivers make sure some are on another node than the sender.
    for (let i = 0; i < 6; i++) inboxes.push(await (await cluster.connect({ url }, b)).subscribe(topics.privateChat(roomId)));
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '어느 노드든', clientMsgId: 'x-1' });
    // Once each: the room's next message, on the same paths, comes right after it.
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '다음 글', clientMsgId: 'x-2' });
    for (const inbox of inboxes) {
      expect((await inbox.next()).json<ChatMessageEvent>().content).to.equal('어느 노드든');
      expect((await inbox.next()).json<ChatMessageEvent>().content).to.equal('다음 글');
    }
  }

  it('WORKERS=2 runs two nodes on one port that share users and messages, and SIGTERM stops them all', async () => {
    const port = await freePort();
    const supervisor = await NodeProcess.start({ ...cluster.env, PORT: String(port), WORKERS: '2', MAX_CONNECTIONS_PER_ADDRESS: '1000' });
    try {
      // The second worker starts once the first listens; from then on fresh connections reach both.
      const seen = new Set<string>();
      for (const deadline = Date.now() + 30_000; seen.size < 2 && Date.now() < deadline; ) seen.add(await nodeBehind(supervisor.url));
      expect(seen.size).to.equal(2);
      await chatAcrossNodes(supervisor.url);
    } finally {
      await supervisor.stop('SIGTERM');
    }
    const refused = await fetch(`http://127.0.0.1:${port}${api.healthz}`).then(() => false, () => true);
    expect(refused).to.equal(true);
  });

  it('a second WORKERS=2 on a port the first holds exits 1 with the message one process gives, and the first keeps serving alone', async () => {
    const port = await freePort();
    const env = { ...cluster.env, PORT: String(port), WORKERS: '2' };
    const first = await NodeProcess.start(env);
    try {
      // The port answers at once (the first holds it): start() returns, or the second has exited already.
      const second = await NodeProcess.start(env).then(
        async (node) => ({ code: await within(node.exited(), 60_000, 'the second supervisor to exit'), output: node.output.join('') }),
        (err: Error) => ({ code: /exited with ([0-9]+)/.exec(err.message)?.[1] === '1' ? 1 : -1, output: err.message }),
      );
      expect(second.code, second.output).to.equal(1);
      expect(second.output).to.include(`Let's Chat could not start: cannot listen on 127.0.0.1:${port}: the port is in use or not allowed`);
      // Only the first deployment's two workers answer on the port.
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) seen.add(await nodeBehind(first.url));
      expect(seen.size).to.be.at.most(2);
    } finally {
      await first.stop('SIGTERM');
    }
  });

  it('HAProxy with deploy/haproxy.cfg spreads users over three nodes that serve each other’s messages', async function () {
    if (!HaproxyProcess.available()) {
      if (IN_CI) throw new Error('haproxy is not installed: CI must run every test');
      console.warn('\n  !!! SKIPPING the HAProxy test: haproxy is not installed (scripts/system-deps.sh installs it)\n');
      this.skip();
    }
    const nodes = await Promise.all([0, 1, 2].map(() => NodeProcess.start({ ...cluster.env, TRUSTED_PROXIES: '127.0.0.1', MAX_CONNECTIONS_PER_ADDRESS: '1000' })));
    const proxy = await HaproxyProcess.start('deploy/haproxy.cfg', Object.fromEntries(nodes.map((n, i) => [`LETSCHAT_NODE${i + 1}`, `127.0.0.1:${n.port}`])));
    try {
      const seen = new Set<string>();
      for (let i = 0; i < 30 && seen.size < 3; i++) seen.add(await nodeBehind(proxy.url));
      expect(seen.size, proxy.output.join('')).to.equal(3);
      await chatAcrossNodes(proxy.url);
    } finally {
      await proxy.stop();
      await Promise.all(nodes.map((n) => n.stop()));
    }
  });
});
