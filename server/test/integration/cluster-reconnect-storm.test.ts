// A reconnect storm: a node of a two-node cluster (MariaDB, a private Redis) holding many STOMP
// sessions is killed (kill -9). Every session comes back on the survivor with the browser's
// jittered exponential backoff (docs/operations.md "Reconnecting"), subscribes again and catches up
// from history by seq, as the browser does; a sender on the survivor keeps sending receipted
// messages throughout. Afterwards every session holds every message of its room, each receipted
// message is stored once, and the survivor's own client saw its messages with the p99 printed
// (docs/architecture.md §9 keeps the figure; timings are not pass criteria here). The survivor's
// own clients run in a process of their own (support/storm-probe.ts), so the figure is the
// server's and not this process's, which plays every storm client.
//
// Size: STORM_SESSIONS (default 1,000 = 50 users × 20 sessions, the per-user cap) rather than the
// 5,000 of the issue: the test process plays every client on the same two shared cores as both
// nodes and MariaDB, and 1,000 sessions already make the survivor take a thousand handshakes,
// subscriptions and history catch-ups in a few seconds. STORM_SESSIONS=5000 runs the full size;
// STORM_METRICS_FILE=path keeps the survivor's /metrics text from right after the storm.
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import WebSocket from 'ws';
import { api, type ChatHistoryResponse } from '@common/api';
import { topics, WEBSOCKET_PATH } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import type { ApiClient } from '../support/api-client';
import { useCluster, type ClusterPerson, type NodeProcess } from '../support/cluster';
import type { ProbeArgs, ProbeCommand, ProbeReport } from '../support/storm-probe';
import { waitFor, within } from '../support/wait';

const SESSIONS = Number(process.env.STORM_SESSIONS ?? 1000);
const PER_USER = 20;
const USERS_PER_ROOM = 5;
/** The browser's backoff (client/src/services/stomp.ts reconnectDelay), duplicated: the test cannot import the client. */
const BASE_MS = 5000;
const MAX_MS = 30_000;
const backoff = (attempt: number) => Math.round(Math.min(MAX_MS, BASE_MS * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2));

interface Frame {
  command: string;
  headers: Map<string, string>;
  body: string;
}

function encode(command: string, headers: Record<string, string>, body = ''): string {
  return `${command}\n${Object.entries(headers).map(([k, v]) => `${k}:${v}`).join('\n')}\n\n${body}\0`;
}

function parse(raw: string): Frame {
  const text = raw.replace(/^[\r\n]+/, '');
  const split = text.indexOf('\n\n');
  const [command, ...lines] = text.slice(0, split).split('\n');
  return { command, headers: new Map(lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)] as [string, string])), body: text.slice(split + 2) };
}

/** One room member's session, as lean as a thousand of them need: the browser's reconnect and catch-up by seq. */
class StormSession {
  private ws: WebSocket | null = null;
  private url: string;
  private attempts = 0;
  private lastSeq = 0;
  private readonly seqs = new Set<number>();
  private catchingUp = false;
  /** When this session last got its subscription confirmed (performance.now()). */
  subscribedAt = 0;
  private firstSubscribed = () => {};
  /** Resolves once the session first subscribed, whatever attempts that took (it retries as the browser does). */
  readonly subscribed = new Promise<void>((resolve) => (this.firstSubscribed = resolve));
  reconnects = 0;
  stopped = false;

  constructor(
    node: NodeProcess,
    private readonly client: ApiClient,
    private readonly roomId: number,
  ) {
    this.url = node.url;
  }

  /** Where the next attempt goes (the survivor, once its node is dead: a load balancer's job). */
  moveTo(node: NodeProcess): void {
    this.url = node.url;
  }

  get last(): number {
    return this.lastSeq;
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url.replace(/^http/, 'ws') + WEBSOCKET_PATH, ['v12.stomp'], { headers: { cookie: this.client.cookieHeader() }, perMessageDeflate: false });
      this.ws = ws;
      let pending = '';
      let settled = false;
      ws.on('open', () => ws.send(encode('CONNECT', { 'accept-version': '1.2', host: 'localhost', 'heart-beat': '0,0' })));
      ws.on('message', (data: Buffer) => {
        pending += data.toString();
        let end;
        while ((end = pending.indexOf('\0')) >= 0) {
          const frame = parse(pending.slice(0, end));
          pending = pending.slice(end + 1);
          if (frame.command === 'CONNECTED') ws.send(encode('SUBSCRIBE', { id: 'sub-0', destination: topics.privateChat(this.roomId), receipt: 'sub' }));
          else if (frame.command === 'RECEIPT') {
            this.subscribedAt = performance.now();
            this.firstSubscribed();
            this.attempts = 0;
            settled = true;
            resolve();
            // Subscribed: whatever came while away is in history (the browser's catch-up).
            void this.catchUp();
          } else if (frame.command === 'MESSAGE') this.received(JSON.parse(frame.body) as ChatMessageEvent);
        }
      });
      ws.on('error', () => {});
      ws.on('close', () => {
        this.ws = null;
        if (!settled) reject(new Error('closed before subscribed'));
        if (!this.stopped) this.retry();
      });
    });
  }

  private retry(): void {
    this.attempts++;
    this.reconnects++;
    setTimeout(() => this.open().catch(() => {}), backoff(this.attempts));
  }

  private received(message: ChatMessageEvent): void {
    const seq = message.seq ?? 0;
    if (seq > this.lastSeq + 1) void this.catchUp();
    this.keep(seq);
  }

  private keep(seq: number): void {
    this.seqs.add(seq);
    while (this.seqs.has(this.lastSeq + 1)) this.lastSeq++;
  }

  private async catchUp(): Promise<void> {
    if (this.catchingUp) return;
    this.catchingUp = true;
    try {
      for (;;) {
        // Where the session is now: the node that served the login is gone.
        const res = await fetch(`${this.url}${api.chatHistory}?chatRoomId=${this.roomId}&afterSeq=${this.lastSeq}`, { headers: { cookie: this.client.cookieHeader() } });
        if (res.status !== 200) throw new Error(`history answered ${res.status}`);
        const page = (await res.json()) as ChatHistoryResponse;
        // A member added after the room started sees it from their joining on (a private past):
        // the first answer from the start says where this member's room begins.
        if (this.lastSeq === 0 && page.messages.length > 0) this.lastSeq = Math.max(0, (page.messages[0].seq ?? 1) - 1);
        for (const m of page.messages) this.keep(m.seq ?? 0);
        if (!page.hasMore) return;
      }
    } catch {
      // Tried again on the next gap or reconnect, as the browser does.
    } finally {
      this.catchingUp = false;
    }
  }

  close(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}

/** The survivor's own clients, in a child process: `ready` once a first message went to every room. */
function startProbe(args: ProbeArgs): { ready: Promise<void>; measure(): void; stop(): Promise<Extract<ProbeReport, { type: 'result' }>> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../support/storm-probe.ts'), JSON.stringify(args)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let onReady: () => void = () => {};
  let onResult: (r: Extract<ProbeReport, { type: 'result' }>) => void = () => {};
  let onFailure: (err: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (onFailure = reject));
  failed.catch(() => {});
  let done = false;
  child.on('message', (r: ProbeReport) => {
    if (r.type === 'ready') return onReady();
    done = true;
    child.kill();
    onResult(r);
  });
  child.on('exit', (code) => {
    if (!done) onFailure(new Error(`the storm probe exited with ${code}`));
  });
  const command = (c: ProbeCommand) => child.send(c);
  return {
    ready: Promise.race([new Promise<void>((r) => (onReady = r)), failed]),
    measure: () => command({ type: 'measure' }),
    stop: () => {
      const result = Promise.race([new Promise<Extract<ProbeReport, { type: 'result' }>>((r) => (onResult = r)), failed]);
      command({ type: 'stop' });
      return result;
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

describe('a reconnect storm: a node holding many sessions killed (MariaDB, Redis)', function () {
  // Setting up 5,000 sessions alone takes minutes on a busy machine.
  this.timeout(Math.max(300_000, SESSIONS * 200));
  const cluster = useCluster({ nodes: 2, stopSignal: 'SIGKILL', env: { MAX_CONNECTIONS_PER_ADDRESS: String(SESSIONS + 100), METRICS_TOKEN: 'storm' } });
  const { nodes, person } = cluster;
  const sessions: StormSession[] = [];
  afterEach(() => sessions.splice(0).forEach((s) => s.close()));

  it(`brings ${SESSIONS} sessions back on the survivor with jittered backoff, losing nothing receipted`, async () => {
    const [survivor, doomed] = nodes;
    const userCount = Math.ceil(SESSIONS / PER_USER);
    const roomCount = Math.ceil(userCount / USERS_PER_ROOM);
    // The sender and the neighbour are the survivor's own clients; the members sit on the doomed node.
    const [sender, neighbour] = await Promise.all([person(survivor, '보내는이'), person(survivor, '이웃')]);
    const members: ClusterPerson[] = [];
    for (let i = 0; i < userCount; i += 10) {
      members.push(...(await Promise.all(Array.from({ length: Math.min(10, userCount - i) }, (_, k) => person(doomed, `폭풍 ${String.fromCharCode(0xac00 + i + k)}`)))));
    }
    const rooms: number[] = [];
    for (let r = 0; r < roomCount; r++) {
      const roomId = (await sender.client.post(api.roomCreate, { targetUserId: neighbour.user.userId })).body.chatRoomId as number;
      for (const m of members.slice(r * USERS_PER_ROOM, (r + 1) * USERS_PER_ROOM)) {
        expect((await sender.client.post(api.addUser, { chatRoomId: roomId, userId: m.user.userId })).status).to.equal(200);
      }
      rooms.push(roomId);
    }
    for (let s = 0; s < SESSIONS; s++) {
      const u = Math.floor(s / PER_USER);
      sessions.push(new StormSession(doomed, members[u].client, rooms[Math.floor(u / USERS_PER_ROOM)]));
    }
    // A socket the loaded node closes before it subscribed opens again by itself, as the browser's would.
    for (let i = 0; i < sessions.length; i += 100) {
      const batch = sessions.slice(i, i + 100);
      for (const s of batch) s.open().catch(() => {});
      await Promise.all(batch.map((s) => s.subscribed));
    }

    // The survivor's own clients: the sender, and the neighbour reading every room (a process of their own).
    const probe = startProbe({ url: survivor.url, senderCookie: sender.client.cookieHeader(), readerCookie: neighbour.client.cookieHeader(), rooms, everyMs: 20 });
    await within(probe.ready, 60_000, 'a first message in every room');

    // Whose event loop stalled: the survivor's (its metrics) or this process, which plays every client.
    const ownLoop = monitorEventLoopDelay({ resolution: 10 });
    ownLoop.enable();
    const killedAt = performance.now();
    probe.measure();
    sessions.forEach((s) => s.moveTo(survivor));
    await doomed.stop('SIGKILL');
    const allBack = waitFor(() => sessions.every((s) => s.subscribedAt > killedAt), { what: 'every session back on the survivor', timeoutMs: 120_000, everyMs: 100 });
    await within(allBack, 120_000, 'every session back');
    const backAfterMs = Math.max(...sessions.map((s) => s.subscribedAt)) - killedAt;
    ownLoop.disable();
    const { latencies, receipted, ownStallMaxMs } = await probe.stop();
    const metrics = await (await fetch(`${survivor.url}/metrics`, { headers: { authorization: 'Bearer storm' } })).text();
    if (process.env.STORM_METRICS_FILE) writeFileSync(process.env.STORM_METRICS_FILE, metrics);
    const survivorLagMax = /^nodejs_eventloop_lag_max_seconds ([0-9.e+-]+)$/m.exec(metrics)?.[1];
    const survivorLagP99 = /^nodejs_eventloop_lag_p99_seconds ([0-9.e+-]+)$/m.exec(metrics)?.[1];

    // Every receipted message is stored once, and every session holds its room's every message.
    const lastSeqs = new Map<number, number>();
    for (const roomId of rooms) {
      const history = (await sender.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&afterSeq=0`)).body.messages;
      lastSeqs.set(roomId, Math.max(...history.map((m) => m.seq ?? 0)));
      const ids = history.map((m) => m.clientMsgId).filter((id): id is string => !!id?.startsWith('storm-'));
      expect(new Set(ids).size, 'a receipted message stored twice').to.equal(ids.length);
      for (const id of receipted.filter((_, n) => n % rooms.length === rooms.indexOf(roomId))) expect(ids).to.include(id);
    }
    await waitFor(() => sessions.every((s, i) => s.last >= lastSeqs.get(rooms[Math.floor(Math.floor(i / PER_USER) / USERS_PER_ROOM)])!), {
      what: 'every session to hold every message of its room',
      timeoutMs: 60_000,
      everyMs: 100,
    });
    const reconnects = sessions.reduce((n, s) => n + s.reconnects, 0);
    console.log(
      `      (${SESSIONS} sessions back ${(backAfterMs / 1000).toFixed(1)} s after the kill, ${reconnects} reconnect attempts; ` +
        `survivor's own client meanwhile: ${latencies.length} messages, p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, ` +
        `max ${Math.max(...latencies).toFixed(0)} ms; ${receipted.length} receipted; event-loop delay max: survivor ${(Number(survivorLagMax) * 1000).toFixed(0)} ms ` +
        `(p99 ${(Number(survivorLagP99) * 1000).toFixed(0)} ms since start), the storm's process ${(ownLoop.max / 1e6).toFixed(0)} ms, the probe's ${ownStallMaxMs.toFixed(0)} ms)`,
    );
  });
});
