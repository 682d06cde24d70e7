// Group calls against a real Janus (Debian's, embedded by the server: JANUS_URLS unset): three
// wrtc participants over real STOMP each send their own tone through the SFU and hear the two
// others'; the next one past GROUP_CALL_MAX is refused 'full'; a non-member is refused at every
// destination and by GET; whoever blocked the starter is not rung; the last one out ends the
// call with its record; a participant whose
// connection drops keeps their place for the reconnect grace and takes it back by joining again
// (on the same node, or through another node) or by subscribing to their signals again (a
// reconnected tab); signals sent through a node that does not hold the participant's handles are
// relayed; killing the Janus process ends a call with 'media-server-lost'. Janus missing: a loud
// skip, a failure under CI.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { api, type ChatHistoryResponse, type GroupCallSystemEvent } from '@common/api';
import { app, queues, topics } from '@common/destinations';
import type { GroupCallSignal, GroupCallStateResponse, GroupIncomingEvent } from '@common/group-call';
import type { RoomEvent } from '@common/payloads';
import type { RunningServer } from '../../../server/src/main';
import type { ApiClient } from '../../../server/test/support/api-client';
import { IN_CI } from '../../../server/test/support/databases';
import { connectStomp, type Inbox, type TestStomp } from '../../../server/test/support/stomp-client';
import { startTestServer } from '../../../server/test/support/test-server';
import { newLoggedInUser, type TestUser } from '../../../server/test/support/users';
import { waitFor } from '../../../server/test/support/wait';
import { GroupPeer } from '../../src/caller/group-peer';
import { EmbeddedJanus } from '../../../server/src/media/embedded-janus';
import { createLogger } from '../../../server/src/log';
import { createMysqlDatabase, TestRedis } from '../../../server/test/support/cluster';

const MAX = 3;
/**
 * The reconnect grace of the one-node server: long enough for a reconnect and a join on a loaded
 * machine, short enough to wait out when a participant does not come back.
 */
const GRACE_MS = 8000;
const TONES = [440, 660, 880, 1100];

interface Member {
  user: TestUser;
  client: ApiClient;
  stomp: TestStomp;
  signals: Inbox;
  incoming: Inbox;
  roomEvents?: Inbox;
  peer?: GroupPeer;
}

function janusInstalled(): boolean {
  try {
    return execFileSync('janus', ['--help'], { encoding: 'utf8' }).includes('janus');
  } catch {
    return false;
  }
}

/** The embedded Janus: this process's child running janus. */
function embeddedJanusPid(): number | null {
  const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).toString();
  const line = out.split('\n').find((l) => /\bjanus\b/.test(l));
  return line ? Number(line.trim().split(/\s+/)[0]) : null;
}

describe('group calls through Janus', function () {
  let server: RunningServer;
  let dir: string;
  const open: Member[] = [];

  before(async function () {
    if (!janusInstalled()) {
      const message = 'janus is not installed (apt-get install janus)';
      if (IN_CI) throw new Error(`${message}: CI must run every test`);
      console.warn(`\n  !!! SKIPPING group calls: ${message}\n`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-call-'));
    server = await startTestServer({ databaseUrl: `sqlite:${path.join(dir, 'db.sqlite3')}`, env: { GROUP_CALL_MAX: String(MAX), GROUP_CALL_RECONNECT_GRACE_MS: String(GRACE_MS) } });
  });

  afterEach(async () => {
    for (const m of open.splice(0)) {
      m.peer?.close();
      await m.stomp.disconnect().catch(() => undefined);
    }
  });

  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function member(name: string): Promise<Member> {
    const { user, client } = await newLoggedInUser(server, { name });
    const stomp = await connectStomp(server, client.cookieHeader());
    const m: Member = {
      user, client, stomp,
      signals: await stomp.subscribe(queues.call('group-signal', user.userId)),
      incoming: await stomp.subscribe(queues.call('group-incoming', user.userId)),
    };
    open.push(m);
    return m;
  }

  async function roomOf(members: Member[]): Promise<number> {
    const [first, second, ...rest] = members;
    const res = await first.client.post(api.roomCreate, { targetUserId: second.user.userId, targetUserName: 'x' });
    expect(res.status, res.text).to.equal(200);
    const roomId = res.body.chatRoomId as number;
    for (const m of rest) expect((await first.client.post(api.addUser, { chatRoomId: roomId, userId: m.user.userId })).status).to.equal(200);
    for (const m of members) m.roomEvents = await m.stomp.subscribe(topics.chatRoomEvents(roomId));
    return roomId;
  }

  async function nextSignal(m: Member, kind: GroupCallSignal['kind']): Promise<GroupCallSignal> {
    for (;;) {
      const signal = (await m.signals.next(20_000)).json<GroupCallSignal>();
      if (signal.kind === kind) return signal;
      // Media signals flow while we wait for a state change; they belong to the peer.
      if (m.peer) void m.peer.handle(signal);
    }
  }

  async function nextRoomEvent(m: Member, type: RoomEvent['type']): Promise<RoomEvent> {
    for (;;) {
      const event = (await m.roomEvents!.next(20_000)).json<RoomEvent>();
      if (event.type === type) return event;
    }
  }

  /** Connects the member's media: every signal of their queue goes to their peer. */
  function attachPeer(m: Member, roomId: number, callId: string, toneOf: (userId: number) => number | undefined, toneHz: number): GroupPeer {
    const peer = new GroupPeer({
      userId: m.user.userId, toneHz, toneOf,
      note: (message) => console.warn(`participant ${m.user.userId}: ${message}`),
      send: (signal) => void m.stomp.send(app.groupCallSignal, { chatRoomId: roomId, callId, ...signal }).catch(() => undefined),
    });
    m.peer = peer;
    void (async () => {
      for (;;) {
        let body;
        try {
          body = (await m.signals.next(600_000)).json<GroupCallSignal>();
        } catch {
          return;
        }
        await peer.handle(body);
      }
    })();
    return peer;
  }

  it('lets three members hear each other through the SFU, refuses the fourth as full, and posts the record when the last leaves', async () => {
    const members = await Promise.all(['가', '나', '다', '라'].map((n) => member(n)));
    const roomId = await roomOf(members);
    const tones = new Map(members.map((m, i) => [m.user.userId, TONES[i]]));
    const toneOf = (userId: number) => tones.get(userId);
    const [a, b, c, d] = members;

    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const joined = await nextSignal(a, 'joined');
    if (joined.kind !== 'joined') throw new Error('not joined');
    const callId = joined.callId;
    const ring = (await b.incoming.next()).json<GroupIncomingEvent>();
    expect(ring).to.deep.equal({ chatRoomId: roomId, callId, media: 'audio', starterName: '가' });
    const state = await b.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
    expect(state.status).to.equal(200);
    expect(state.body).to.include({ active: true, callId, chatRoomId: roomId });

    const peers = [attachPeer(a, roomId, callId, toneOf, TONES[0])];
    await peers[0].handle(joined);
    for (const [i, m] of [b, c].entries()) {
      const peer = attachPeer(m, roomId, callId, toneOf, TONES[i + 1]);
      peers.push(peer);
      await m.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    }
    const trio = [a, b, c];
    await waitFor(() => trio.every((m) => trio.every((o) => o === m || m.peer!.hears(o.user.userId))), { timeoutMs: 45_000, what: 'every participant hearing both others' })
      .catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(trio.map((m) => ({ userId: m.user.userId, ...m.peer!.status() })))}`);
      });

    await d.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    const full = await nextSignal(d, 'refused');
    expect(full).to.deep.equal({ kind: 'refused', callId, chatRoomId: roomId, reason: 'full', message: '통화 인원이 가득 찼습니다.' });

    for (const m of trio) {
      m.peer!.close();
      await m.stomp.send(app.groupCallLeave, { chatRoomId: roomId, callId });
    }
    expect(await nextRoomEvent(d, 'groupCallEnded')).to.deep.equal({ type: 'groupCallEnded', chatRoomId: roomId, callId });
    const after = await d.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
    expect(after.body).to.deep.equal({ active: false });
    const history = await waitFor(async () => {
      const res = await d.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}`);
      const list = JSON.stringify(res.body);
      return list.includes('"groupCall"') ? list : null;
    }, { what: 'the group call record' });
    const record = /"systemEvent":(\{"type":"groupCall"[^}]*\})/.exec(history)?.[1];
    const event = JSON.parse(record ?? '{}') as GroupCallSystemEvent;
    expect(event).to.include({ type: 'groupCall', actorUserId: a.user.userId, actorName: '가', media: 'audio', participantCount: 3 });
  });

  it('refuses a non-member at every destination and answers GET with 403', async () => {
    const [a, b, outsider] = await Promise.all(['A', 'B', 'Out'].map((n) => member(n)));
    const roomId = await roomOf([a, b]);
    const refusal = async (destination: string, body: object) => {
      await outsider.stomp.send(destination, { chatRoomId: roomId, ...body });
      const signal = await nextSignal(outsider, 'refused');
      expect(signal).to.include({ kind: 'refused', chatRoomId: roomId, reason: 'not-member' });
    };
    await refusal(app.groupCallStart, { media: 'audio' });
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const joined = await nextSignal(a, 'joined');
    const callId = joined.kind === 'joined' ? joined.callId : '';
    await refusal(app.groupCallJoin, { callId });
    await refusal(app.groupCallMediaState, { callId, muted: true, camera: false, screen: false });
    await refusal(app.groupCallSignal, { callId, kind: 'publish', sdp: 'v=0' });
    const res = await outsider.client.get(`${api.groupCall}?chatRoomId=${roomId}`);
    expect(res.status).to.equal(403);
    await a.stomp.send(app.groupCallLeave, { chatRoomId: roomId, callId });
    await nextRoomEvent(b, 'groupCallEnded');
  });

  it('lets go of a member who leaves the room at once, and of one whose last connection drops after the reconnect grace', async () => {
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((n) => member(n)));
    const roomId = await roomOf([a, b, c]);
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const joined = await nextSignal(a, 'joined');
    const callId = joined.kind === 'joined' ? joined.callId : '';
    for (const m of [b, c]) {
      await m.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
      await nextSignal(m, 'joined');
    }
    const participants = async () => {
      const res = await a.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
      return res.body.active ? res.body.participants.map((p) => p.userId).sort((x, y) => x - y) : [];
    };
    expect(await participants()).to.have.length(3);
    const left = await b.client.request('DELETE', `${api.leaveChat}?chatRoomId=${roomId}`);
    expect(left.status, left.text).to.equal(200);
    await waitFor(async () => (await participants()).length === 2, { what: 'the leaver out of the call' });
    expect(await participants()).to.not.include(b.user.userId);
    await c.stomp.client.deactivate({ force: true });
    await waitFor(async () => {
      const res = await a.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
      return res.body.active && res.body.participants.find((p) => p.userId === c.user.userId)?.reconnecting;
    }, { what: 'the dropped participant marked reconnecting' });
    await waitFor(async () => (await participants()).length === 1, { what: 'the dropped participant out of the call after the grace' });
    expect(await participants()).to.deep.equal([a.user.userId]);
    await a.stomp.send(app.groupCallLeave, { chatRoomId: roomId, callId });
    await nextRoomEvent(a, 'groupCallEnded');
  });

  it('keeps the place of a participant who drops and joins again within the grace; past it, the last one out ends the call', async () => {
    const [a, b] = await Promise.all(['A', 'B'].map((n) => member(n)));
    const roomId = await roomOf([a, b]);
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const joined = await nextSignal(a, 'joined');
    const callId = joined.kind === 'joined' ? joined.callId : '';
    const stateOfA = async () => {
      const res = await b.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
      return res.body.active ? res.body.participants.find((p) => p.userId === a.user.userId) ?? null : null;
    };
    // A reload: the socket goes, a new one comes and joins the call again.
    await a.stomp.client.deactivate({ force: true });
    await waitFor(async () => (await stateOfA())?.reconnecting, { what: 'A marked reconnecting' });
    const again = await connectStomp(server, a.client.cookieHeader());
    open.push({ ...a, stomp: again });
    const signals = await again.subscribe(queues.call('group-signal', a.user.userId));
    await again.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    // Past the grace the call would be over: the join would be refused no-call.
    // (A loaded machine's patience: the join waits for Janus.)
    expect((await signals.next(45_000)).json<GroupCallSignal>()).to.deep.include({ kind: 'joined', callId, chatRoomId: roomId });
    expect(await stateOfA()).to.deep.equal({ userId: a.user.userId, name: 'A', muted: false, camera: false, screen: false });
    // Gone again, not back: out after the grace, and with them the call.
    await again.client.deactivate({ force: true });
    await waitFor(async () => (await b.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`)).body.active === false, { timeoutMs: 45_000, what: 'the call ended after the grace' });
  });

  it('keeps past the grace a participant whose tab reconnected and subscribed to its group-signal queue again, without joining', async () => {
    const [a, b] = await Promise.all(['A', 'B'].map((n) => member(n)));
    const roomId = await roomOf([a, b]);
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const joined = await nextSignal(a, 'joined');
    const callId = joined.kind === 'joined' ? joined.callId : '';
    await b.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    await nextSignal(b, 'joined');
    const state = async () => {
      const res = await a.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
      return res.body.active ? res.body.participants.map((p) => ({ userId: p.userId, reconnecting: p.reconnecting ?? false })) : [];
    };
    // A network blip: A's socket goes, the same tab connects again and subscribes as it was.
    await a.stomp.client.deactivate({ force: true });
    await waitFor(async () => (await state()).find((p) => p.userId === a.user.userId)?.reconnecting, { what: 'A marked reconnecting' });
    const again = await connectStomp(server, a.client.cookieHeader());
    open.push({ ...a, stomp: again });
    await again.subscribe(queues.call('group-signal', a.user.userId));
    await waitFor(async () => (await state()).some((p) => p.userId === a.user.userId && !p.reconnecting), { what: 'A back in its place' });
    // B drops for good: out after its grace, which began after A's would have ended.
    await b.stomp.client.deactivate({ force: true });
    await waitFor(async () => !(await state()).some((p) => p.userId === b.user.userId), { what: 'B out after the grace' });
    expect(await state()).to.deep.equal([{ userId: a.user.userId, reconnecting: false }]);
    await again.send(app.groupCallLeave, { chatRoomId: roomId, callId });
  });

  it('rings no member who blocked the starter (issue 26), and the others as before', async () => {
    const [a, blocker, c] = await Promise.all(['Starter', 'Blocker', 'Rung'].map((n) => member(n)));
    const roomId = await roomOf([a, blocker, c]);
    expect((await blocker.client.request('PUT', api.block(a.user.userId), { json: {} })).status).to.equal(200);
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const joined = await nextSignal(a, 'joined');
    const callId = joined.kind === 'joined' ? joined.callId : '';
    // Members are rung in the order they joined the room: the blocker's turn came before c's.
    expect((await c.incoming.next(20_000)).json<GroupIncomingEvent>()).to.deep.include({ chatRoomId: roomId, callId });
    await blocker.incoming.nothingSoFar();
    await a.stomp.send(app.groupCallLeave, { chatRoomId: roomId, callId });
    await nextRoomEvent(c, 'groupCallEnded');
  });

  it('ends the call with media-server-lost when the Janus process dies', async () => {
    const [a, b] = await Promise.all(['A', 'B'].map((n) => member(n)));
    const roomId = await roomOf([a, b]);
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'video' });
    const joined = await nextSignal(a, 'joined');
    const callId = joined.kind === 'joined' ? joined.callId : '';
    await b.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    await nextSignal(b, 'joined');
    const pid = embeddedJanusPid();
    expect(pid, 'the embedded janus process').to.be.a('number');
    process.kill(pid!, 'SIGKILL');
    const ended = await nextSignal(b, 'ended');
    expect(ended).to.deep.include({ kind: 'ended', callId, chatRoomId: roomId, reason: 'media-server-lost' });
    expect(await nextRoomEvent(a, 'groupCallEnded')).to.deep.equal({ type: 'groupCallEnded', chatRoomId: roomId, callId });
    // The supervisor restarted Janus: a new call works again.
    await waitFor(async () => {
      await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
      const next = (await a.signals.next(20_000)).json<GroupCallSignal>();
      return next.kind === 'joined' ? next : null;
    }, { timeoutMs: 20_000, what: 'a new call after the restart' });
  });
});

describe('a group call across two nodes (REDIS_URL) on one Janus (JANUS_URLS)', function () {
  let janus: EmbeddedJanus | null = null;
  let redis: TestRedis | null = null;
  let database: { url: string; drop(): Promise<void> } | null = null;
  const nodes: RunningServer[] = [];
  const open: Array<{ stomp: TestStomp; peer?: GroupPeer }> = [];

  before(async function () {
    if (!janusInstalled()) {
      const message = 'janus is not installed (apt-get install janus)';
      if (IN_CI) throw new Error(`${message}: CI must run every test`);
      console.warn(`\n  !!! SKIPPING group calls across nodes: ${message}\n`);
      this.skip();
    }
    database = await createMysqlDatabase(this);
    redis = await TestRedis.start();
    janus = await EmbeddedJanus.start({ binary: 'janus', stunUrls: [], turnUrls: [], log: createLogger('silent') });
    const env = { JANUS_URLS: janus.url, JANUS_API_SECRET: janus.apiSecret, REDIS_URL: redis.url };
    nodes.push(await startTestServer({ databaseUrl: database.url, env }));
    nodes.push(await startTestServer({ databaseUrl: database.url, env }));
  });

  after(async () => {
    for (const o of open.splice(0)) {
      o.peer?.close();
      await o.stomp.disconnect().catch(() => undefined);
    }
    for (const node of nodes.splice(0)) await node.stop();
    await janus?.stop();
    await redis?.stop();
    await database?.drop();
  });

  it('lets participants on different nodes hear each other', async () => {
    const people = await Promise.all(['A', 'B', 'C'].map(async (name, i) => {
      const node = nodes[i % 2];
      const { user, client } = await newLoggedInUser(node, { name });
      const stomp = await connectStomp(node, client.cookieHeader());
      const signals = await stomp.subscribe(queues.call('group-signal', user.userId));
      const entry: { stomp: TestStomp; peer?: GroupPeer } = { stomp };
      open.push(entry);
      return { user, client, stomp, signals, entry };
    }));
    const [a, b, c] = people;
    const res = await a.client.post(api.roomCreate, { targetUserId: b.user.userId, targetUserName: 'x' });
    const roomId = res.body.chatRoomId as number;
    expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId })).status).to.equal(200);
    const tones = new Map(people.map((p, i) => [p.user.userId, TONES[i]]));
    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const first = (await a.signals.next(20_000)).json<GroupCallSignal>();
    if (first.kind !== 'joined') throw new Error(`not joined: ${JSON.stringify(first)}`);
    const callId = first.callId;
    for (const [i, p] of people.entries()) {
      const peer = new GroupPeer({
        userId: p.user.userId, toneHz: TONES[i], toneOf: (id) => tones.get(id),
        send: (signal) => void p.stomp.send(app.groupCallSignal, { chatRoomId: roomId, callId, ...signal }).catch(() => undefined),
        note: (message) => console.warn(`node participant ${p.user.userId}: ${message}`),
      });
      p.entry.peer = peer;
      void (async () => {
        for (;;) {
          let signal: GroupCallSignal;
          try {
            signal = (await p.signals.next(600_000)).json<GroupCallSignal>();
          } catch {
            return;
          }
          await peer.handle(signal);
        }
      })();
    }
    await a.entry.peer!.handle(first);
    // B joins through the other node, C through the first.
    for (const p of [b, c]) await p.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    await waitFor(() => people.every((p) => people.every((o) => o === p || p.entry.peer!.hears(o.user.userId))), { timeoutMs: 45_000, what: 'every participant hearing both others across nodes' })
      .catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(people.map((p) => ({ userId: p.user.userId, ...p.entry.peer!.status() })))}`);
      });
    // The state every node answers is the same call.
    const state = await c.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
    expect(state.body).to.include({ active: true, callId });
    const fromOther = await fetch(`${nodes[1].url}${api.groupCall}?chatRoomId=${roomId}`, { headers: { cookie: c.client.cookieHeader() } });
    expect(((await fromOther.json()) as { participants: unknown[] }).participants).to.have.length(3);
  });

  it("relays the signals a participant sends through the node that does not hold their handles, and gives their place back when they join again through it", async () => {
    const connect = async (node: RunningServer, cookie: string, userId: number) => {
      const stomp = await connectStomp(node, cookie);
      open.push({ stomp });
      return { stomp, signals: await stomp.subscribe(queues.call('group-signal', userId)) };
    };
    const people = await Promise.all(['A', 'B'].map(async (name) => {
      const { user, client } = await newLoggedInUser(nodes[0], { name });
      return { user, client, ...(await connect(nodes[0], client.cookieHeader(), user.userId)) };
    }));
    const [a, b] = people;
    const res = await a.client.post(api.roomCreate, { targetUserId: b.user.userId, targetUserName: 'x' });
    const roomId = res.body.chatRoomId as number;
    const tones = new Map(people.map((p, i) => [p.user.userId, TONES[i]]));
    /** A peer taking its signals from `from` and sending its own through `via`. */
    const peerOf = (p: (typeof people)[number], from: Inbox, via: TestStomp, callId: string) => {
      const peer = new GroupPeer({
        userId: p.user.userId, toneHz: tones.get(p.user.userId)!, toneOf: (id) => tones.get(id),
        send: (signal) => void via.send(app.groupCallSignal, { chatRoomId: roomId, callId, ...signal }).catch(() => undefined),
      });
      open.push({ stomp: via, peer });
      void (async () => {
        for (;;) {
          let signal: GroupCallSignal;
          try {
            signal = (await from.next(600_000)).json<GroupCallSignal>();
          } catch {
            return;
          }
          await peer.handle(signal);
        }
      })();
      return peer;
    };
    /** Both hear each other (A through a meter of B's stream other than `stale`, a stream of B's that left). */
    const bothHear = (pa: GroupPeer, pb: GroupPeer, what: string, stale?: unknown) => waitFor(() => pa.meters.get(b.user.userId) !== stale && pa.hears(b.user.userId) && pb.hears(a.user.userId), { timeoutMs: 45_000, what })
      .catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify([pa.status(), pb.status()])}`);
      });

    await a.stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    const first = (await a.signals.next(20_000)).json<GroupCallSignal>();
    if (first.kind !== 'joined') throw new Error(`not joined: ${JSON.stringify(first)}`);
    const { callId } = first;
    const peerA = peerOf(a, a.signals, a.stomp, callId);
    await peerA.handle(first);
    // B joins through node 0 (its handles are there) and sends everything through node 1: heard
    // only if node 1 relays it to node 0.
    const bOther = await connect(nodes[1], b.client.cookieHeader(), b.user.userId);
    const peerB = peerOf(b, b.signals, bOther.stomp, callId);
    await b.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    await bothHear(peerA, peerB, 'A and B hearing each other, B signalling through the other node');

    // B's connections both drop (a reload); B comes back on node 1 and joins again there: Janus
    // lets go of B's old publisher, node 0 of its handles, and the two hear each other again.
    const oldStream = peerA.meters.get(b.user.userId);
    peerB.close();
    await b.stomp.client.deactivate({ force: true });
    await bOther.stomp.client.deactivate({ force: true });
    await waitFor(async () => {
      const state = await a.client.get<GroupCallStateResponse>(`${api.groupCall}?chatRoomId=${roomId}`);
      return state.body.active && state.body.participants.find((p) => p.userId === b.user.userId)?.reconnecting;
    }, { what: 'B marked reconnecting' });
    const back = await connect(nodes[1], b.client.cookieHeader(), b.user.userId);
    const peerBack = peerOf(b, back.signals, back.stomp, callId);
    await back.stomp.send(app.groupCallJoin, { chatRoomId: roomId, callId });
    await bothHear(peerA, peerBack, 'A and B hearing each other after B joined again through the other node', oldStream);
    await a.stomp.send(app.groupCallLeave, { chatRoomId: roomId, callId });
    await back.stomp.send(app.groupCallLeave, { chatRoomId: roomId, callId });
  });
});

describe('group calls without Janus', () => {
  let server: RunningServer;
  let dir = '';
  const open: TestStomp[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-call-none-'));
    server = await startTestServer({ databaseUrl: `sqlite:${path.join(dir, 'db.sqlite3')}`, env: { JANUS_BIN: path.join(dir, 'no-janus-here') } });
  });

  after(async () => {
    for (const s of open.splice(0)) await s.disconnect().catch(() => undefined);
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a start as unavailable, with a Korean text, while chat works as before', async () => {
    const [a, b] = await Promise.all(['A', 'B'].map((name) => newLoggedInUser(server, { name })));
    const res = await a.client.post(api.roomCreate, { targetUserId: b.user.userId, targetUserName: 'x' });
    const roomId = res.body.chatRoomId as number;
    const stomp = await connectStomp(server, a.client.cookieHeader());
    open.push(stomp);
    const signals = await stomp.subscribe(queues.call('group-signal', a.user.userId));
    const room = await stomp.subscribe(topics.privateChat(roomId));
    await stomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'audio' });
    expect((await signals.next()).json<GroupCallSignal>()).to.deep.equal({ kind: 'refused', callId: null, chatRoomId: roomId, reason: 'unavailable', message: '지금은 그룹통화를 사용할 수 없습니다.' });
    await stomp.send(app.privateMessage, { chatRoomId: roomId, content: '안녕' });
    expect((await room.next()).json<{ content: string }>().content).to.equal('안녕');
  });
});
