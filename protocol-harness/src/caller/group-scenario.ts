// `harness call --scenario group|group-rejoin|group-full --participants N` (issue 25): N seeded
// users ({prefix}1@example.test …, as `harness load` seeds them) share one room; the first
// starts a group call, the others join; each sends its own tone and must hear every other's
// through the SFU. Reports the heard matrix and the join time (join → every other participant
// heard) p50/p95. group-rejoin: then the last participant leaves and joins again, and everyone
// must hear everyone again. group-full: an (N+1)th member (the server's GROUP_CALL_MAX is N) is
// refused 'full'. `holdMs` (--hold): the call is held that long once everyone hears everyone,
// before anyone leaves (bench/group-call.ts measures CPU over it); each participant's outbound
// audio bitrate over the window is reported and everyone must still hear everyone at its end.
import type { Client, IMessage } from '@stomp/stompjs';
import { api } from '@common/api';
import { app, queues } from '@common/destinations';
import type { GroupCallSignal } from '@common/group-call';
import { connect } from '../shared/stomp';
import { HttpStatusError, login, type Session } from '../shared/rest';
import { GroupPeer } from './group-peer';

export const GROUP_SCENARIOS = ['group', 'group-rejoin', 'group-full'] as const;
export type GroupScenarioName = (typeof GROUP_SCENARIOS)[number];

export interface GroupScenarioOptions {
  url: string;
  usersPrefix: string;
  password: string;
  participants: number;
  stepTimeoutMs: number;
  origin?: string;
  /** Hold the call this long once everyone hears everyone (group and group-rejoin), then leave. */
  holdMs?: number;
  /** Told when the held window starts and ends (a benchmark samples CPU there). */
  onHold?(phase: 'start' | 'end'): void;
}

/** One participant's join, step by step: ms from the join (or start) sent, null if it did not happen. */
export interface JoinTimeline {
  userId: number;
  /** The server's 'joined' (our signalling: Janus handle attached, joined its room as publisher). */
  joinedMs: number | null;
  publishSentMs: number | null;
  /** Janus' answer to the publish offer, relayed by our server. */
  publishAnswerMs: number | null;
  publisherConnectedMs: number | null;
  firstSubscribeOfferMs: number | null;
  subscriberConnectedMs: number | null;
  /** The first sound of the first other participant. */
  firstHeardMs: number | null;
  /** The first sound of every other participant: the join time. */
  allHeardMs: number | null;
  /** Every other participant's tone confirmed by the meter (half a second of their sound later). */
  allConfirmedMs: number | null;
  subscribeOffers: number;
}

export interface HoldReport {
  ms: number;
  /** Each participant's outbound audio over the window, bits per second (RTP payload and headers). */
  outboundAudioBps: number[];
  /** Everyone still heard everyone at the end of the window. */
  everyoneHeard: boolean;
}

export interface GroupScenarioReport {
  scenario: GroupScenarioName;
  ok: boolean;
  reason: string | null;
  participants: number;
  /** heard[listener][speaker]: the listener heard the speaker's tone (user ids as keys). */
  heard: Record<string, Record<string, boolean>>;
  /**
   * Join (the join or start sent) → the first sound of every other participant, per participant:
   * the moment the last of them reached this one, each then confirmed as that participant's tone.
   */
  joinMs: { p50: number | null; p95: number | null; each: number[] };
  /**
   * Join → every other participant's tone confirmed by the meter: joinMs plus the meter's own
   * half second of sound (MIN_SOUND_FRAMES) and its polling; not a latency anyone hears.
   */
  confirmedMs: { p50: number | null; p95: number | null; each: number[] };
  /** Per participant (in join order), where its join time went. */
  timeline: JoinTimeline[];
  hold?: HoldReport;
  rejoinMs?: number | null;
  refusal?: string | null;
  /** On a failure: what each participant's connections, meters and signals showed. */
  diagnostics?: ParticipantDiagnostics[];
}

export interface ParticipantDiagnostics {
  userId: number;
  /** GroupPeer.status(): connection states, mid → user, each meter's report. */
  peer: object | null;
  /** The group signals received, in order: kind and ms since this participant's join. */
  signals: string[];
  /** What the peer noted (a signal it could not apply, a candidate skipped). */
  notes: string[];
}

interface Participant {
  session: Session;
  stomp: Client;
  peer: GroupPeer | null;
  signals: GroupCallSignal[];
  /** kind@ms-since-join of every signal, kept across a rejoin for the diagnostics. */
  signalLog: string[];
  notes: string[];
  joinedAt: number;
  /** performance.now() of the first signal of each kind since the (last) join. */
  signalAt: Map<string, number>;
  toneHz: number;
}

const SEED_DOMAIN = 'example.test';
/** Tones 300 Hz apart from 400 Hz: far enough apart for the meter's tolerance. */
const toneFor = (i: number) => 400 + 150 * i;

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function post(session: Session, path: string, body: object): Promise<unknown> {
  const res = await fetch(session.baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', cookie: session.cookie }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new HttpStatusError(res.status, path, text);
  return text ? (JSON.parse(text) as unknown) : null;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(check: () => T | null | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(20);
  }
}

export async function runGroupScenario(scenario: GroupScenarioName, o: GroupScenarioOptions): Promise<GroupScenarioReport> {
  const count = o.participants + (scenario === 'group-full' ? 1 : 0);
  const report: GroupScenarioReport = { scenario, ok: false, reason: null, participants: o.participants, heard: {}, joinMs: { p50: null, p95: null, each: [] }, confirmedMs: { p50: null, p95: null, each: [] }, timeline: [] };
  const people: Participant[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const session = await login(o.url, `${o.usersPrefix}${i + 1}@${SEED_DOMAIN}`.toLowerCase(), o.password);
      const stomp = await connect(o.url, session.cookie, { origin: o.origin });
      const p: Participant = { session, stomp, peer: null, signals: [], signalLog: [], notes: [], joinedAt: 0, signalAt: new Map(), toneHz: toneFor(i) };
      stomp.subscribe(queues.call('group-signal', session.userId), (m: IMessage) => {
        const signal = JSON.parse(m.body) as GroupCallSignal;
        p.signalLog.push(`${signal.kind}${signal.kind === 'candidate' ? `:${signal.target}` : ''}@${p.joinedAt ? Math.round(performance.now() - p.joinedAt) : '-'}`);
        if (!p.signalAt.has(signal.kind)) p.signalAt.set(signal.kind, performance.now());
        if (p.peer) void p.peer.handle(signal);
        p.signals.push(signal);
      });
      people.push(p);
    }
    // One room of everyone: the first makes it with the second and adds the rest.
    const [first, second] = people;
    const created = (await post(first.session, api.roomCreate, { targetUserId: second.session.userId, targetUserName: 'group call' })) as { chatRoomId: number };
    const chatRoomId = created.chatRoomId;
    for (const p of people.slice(2)) await post(first.session, api.addUser, { chatRoomId, userId: p.session.userId });
    // The members' subscriptions are made; a round trip lets the adds settle before the ring.
    await pause(200);
    const tones = new Map(people.map((p) => [p.session.userId, p.toneHz]));
    const inCall = people.slice(0, o.participants);
    const signalOf = (p: Participant, kind: GroupCallSignal['kind']) => p.signals.find((s) => s.kind === kind);
    let callId = '';
    const attach = (p: Participant) => {
      p.peer = new GroupPeer({
        userId: p.session.userId, toneHz: p.toneHz, toneOf: (id) => tones.get(id),
        note: (message) => p.notes.push(`${message}@${Math.round(performance.now() - p.joinedAt)}`),
        // A candidate wrtc trickles after this participant's connection closed has nowhere to go.
        send: (signal) => {
          if (p.stomp.connected) p.stomp.publish({ destination: app.groupCallSignal, body: JSON.stringify({ chatRoomId, callId, ...signal }) });
        },
      });
    };

    first.joinedAt = performance.now();
    first.stomp.publish({ destination: app.groupCallStart, body: JSON.stringify({ chatRoomId, media: 'audio' }) });
    const joined = await until(() => signalOf(first, 'joined') ?? signalOf(first, 'refused'), o.stepTimeoutMs, 'the start answered');
    if (joined.kind !== 'joined') throw new Error(`the start was refused: ${JSON.stringify(joined)}`);
    callId = joined.callId;
    // What came before the peer existed, then everything after, in order: the two in one
    // synchronous step so that no signal is missed or handled twice.
    const backlog = [...first.signals];
    attach(first);
    for (const s of backlog) void first.peer!.handle(s);
    for (const p of inCall.slice(1)) {
      attach(p);
      p.joinedAt = performance.now();
      p.stomp.publish({ destination: app.groupCallJoin, body: JSON.stringify({ chatRoomId, callId }) });
    }
    const heardAll = (p: Participant) => inCall.every((other) => other === p || p.peer!.hears(other.session.userId));
    const joinTimes = new Map<Participant, { firstSound: number; confirmed: number }>();
    await until(() => {
      for (const p of inCall) {
        if (joinTimes.has(p) || !heardAll(p)) continue;
        const lastFirstSound = Math.max(...inCall.filter((x) => x !== p).map((x) => p.peer!.firstSoundFrom(x.session.userId) ?? Infinity));
        joinTimes.set(p, { firstSound: lastFirstSound - p.joinedAt, confirmed: performance.now() - p.joinedAt });
      }
      return joinTimes.size === inCall.length;
    }, o.stepTimeoutMs * 2, 'every participant hearing every other').catch(() => undefined);
    const times = [...joinTimes.values()];
    for (const [key, field] of [['joinMs', 'firstSound'], ['confirmedMs', 'confirmed']] as const) {
      const each = times.map((t) => Math.round(t[field]));
      report[key] = { p50: percentile(each, 50), p95: percentile(each, 95), each };
    }
    const matrix = () => Object.fromEntries(inCall.map((p) => [String(p.session.userId), Object.fromEntries(inCall.filter((x) => x !== p).map((x) => [String(x.session.userId), p.peer!.hears(x.session.userId)]))]));
    report.heard = matrix();
    report.timeline = inCall.map((p) => timelineOf(p, inCall));
    if (joinTimes.size !== inCall.length) throw new Error('not every participant heard every other');

    if (o.holdMs && scenario !== 'group-full') {
      const before = await Promise.all(inCall.map((p) => p.peer!.outboundAudio()));
      const startedAt = performance.now();
      o.onHold?.('start');
      await pause(o.holdMs);
      o.onHold?.('end');
      const ms = performance.now() - startedAt;
      const after = await Promise.all(inCall.map((p) => p.peer!.outboundAudio()));
      const everyoneHeard = await until(() => inCall.every(heardAll), o.stepTimeoutMs, 'everyone still hearing everyone after the hold').then(() => true, () => false);
      report.hold = {
        ms: Math.round(ms),
        outboundAudioBps: after.map((a, i) => Math.round(((a.bytes - before[i].bytes) * 8 * 1000) / ms)),
        everyoneHeard,
      };
      report.heard = matrix();
      if (!everyoneHeard) throw new Error('not everyone heard everyone at the end of the hold');
    }

    if (scenario === 'group-rejoin') {
      const last = inCall[inCall.length - 1];
      last.peer!.close();
      last.stomp.publish({ destination: app.groupCallLeave, body: JSON.stringify({ chatRoomId, callId }) });
      await pause(500);
      last.signals = [];
      last.signalAt.clear();
      attach(last);
      const rejoinAt = performance.now();
      last.stomp.publish({ destination: app.groupCallJoin, body: JSON.stringify({ chatRoomId, callId }) });
      await until(() => inCall.every(heardAll), o.stepTimeoutMs * 2, 'everyone hearing everyone after the rejoin').catch(() => undefined);
      report.heard = matrix();
      if (!inCall.every(heardAll)) throw new Error('not everyone heard everyone after the rejoin');
      report.rejoinMs = Math.round(performance.now() - rejoinAt);
    }
    if (scenario === 'group-full') {
      const extra = people[people.length - 1];
      extra.stomp.publish({ destination: app.groupCallJoin, body: JSON.stringify({ chatRoomId, callId }) });
      const answer = await until(() => signalOf(extra, 'refused') ?? signalOf(extra, 'joined'), o.stepTimeoutMs, 'the extra participant answered');
      report.refusal = answer.kind === 'refused' ? answer.reason : null;
      if (answer.kind !== 'refused' || answer.reason !== 'full') throw new Error(`the (N+1)th was not refused 'full': ${JSON.stringify(answer)}`);
    }
    for (const p of inCall) p.stomp.publish({ destination: app.groupCallLeave, body: JSON.stringify({ chatRoomId, callId }) });
    report.ok = true;
  } catch (err) {
    report.reason = (err as Error).message;
    report.diagnostics = people.map((p) => ({ userId: p.session.userId, peer: p.peer?.status() ?? null, signals: p.signalLog, notes: p.notes }));
  } finally {
    for (const p of people) {
      p.peer?.close();
      await p.stomp.deactivate().catch(() => undefined);
    }
  }
  return report;
}

function timelineOf(p: Participant, inCall: Participant[]): JoinTimeline {
  const since = (at: number | undefined) => (at === undefined ? null : Math.round(at - p.joinedAt));
  const peer = p.peer!;
  const heard = inCall.filter((x) => x !== p).map((x) => peer.firstSoundFrom(x.session.userId) ?? undefined);
  const confirmed = inCall.filter((x) => x !== p).map((x) => peer.heardAt.get(x.session.userId));
  const all = heard.every((at) => at !== undefined) ? Math.max(...heard) : undefined;
  const first = heard.some((at) => at !== undefined) ? Math.min(...heard.filter((at): at is number => at !== undefined)) : undefined;
  return {
    userId: p.session.userId,
    joinedMs: since(p.signalAt.get('joined')),
    publishSentMs: since(peer.marks.publishSent),
    publishAnswerMs: since(peer.marks.publishAnswer),
    publisherConnectedMs: since(peer.marks.publisherConnected),
    firstSubscribeOfferMs: since(peer.marks.firstSubscribeOffer),
    subscriberConnectedMs: since(peer.marks.subscriberConnected),
    firstHeardMs: since(first),
    allHeardMs: since(all),
    allConfirmedMs: since(confirmed.every((at) => at !== undefined) ? Math.max(...confirmed) : undefined),
    subscribeOffers: peer.subscribeOffers,
  };
}

export function formatGroupReport(r: GroupScenarioReport): string {
  const lines = [`${r.ok ? 'PASS' : 'FAIL'} ${r.scenario} with ${r.participants} participants${r.reason ? `: ${r.reason}` : ''}`];
  lines.push(`join → every other heard (their first sound): p50 ${r.joinMs.p50 ?? '-'} ms, p95 ${r.joinMs.p95 ?? '-'} ms`);
  lines.push(`join → every other's tone confirmed (+0.5 s of sound): p50 ${r.confirmedMs.p50 ?? '-'} ms, p95 ${r.confirmedMs.p95 ?? '-'} ms`);
  for (const [listener, row] of Object.entries(r.heard)) {
    lines.push(`  ${listener} hears ${Object.entries(row).map(([speaker, heard]) => `${speaker}:${heard ? 'yes' : 'NO'}`).join(' ')}`);
  }
  if (r.hold) lines.push(`held ${r.hold.ms} ms: outbound audio ${r.hold.outboundAudioBps.map((b) => `${(b / 1000).toFixed(1)}`).join(' ')} kbit/s; everyone still heard: ${r.hold.everyoneHeard ? 'yes' : 'NO'}`);
  if (r.rejoinMs !== undefined) lines.push(`rejoin → everyone heard again: ${r.rejoinMs ?? '-'} ms`);
  if (r.refusal !== undefined) lines.push(`(N+1)th refused: ${r.refusal ?? 'no'}`);
  for (const d of r.diagnostics ?? []) {
    lines.push(`  participant ${d.userId}: ${JSON.stringify(d.peer)}`);
    lines.push(`    signals: ${d.signals.join(' ') || 'none'}`);
    if (d.notes.length > 0) lines.push(`    notes: ${d.notes.join('; ')}`);
  }
  return lines.join('\n');
}
