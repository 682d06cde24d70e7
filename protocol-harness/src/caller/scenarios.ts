// The call scenarios: two (for busy, three) headless callers go through one flow against a
// running server, and every expectation of docs/spec.md §4 Call and of our server's call rules (docs/protocol.md) is
// checked from what each side observes. A report lists the expectations that held, the one
// that failed, the timings and the audio (and video) measured.
import type { CallMedia, IceServer } from '@common/api';
import type { AudioReport } from './audio-meter';
import { HeadlessCaller, type ReceivedEvent } from './caller';
import { ImpairedNetwork } from './impaired-network';
import type { NetworkPlan } from './network';
import type { SelectedPath } from './peer';
import type { CallQuality } from './quality';
import { callQuality } from './quality-report';
import { CALLEE_VIDEO_TAG, CALLER_VIDEO_TAG, THIRD_VIDEO_TAG, type VideoReport } from './video';

export const SCENARIOS = [
  'accept',
  'reject',
  'hangup-while-ringing',
  'busy',
  'ring-timeout',
  'peer-drop',
  'unavailable',
  'reload-while-ringing',
  'video',
  'upgrade-to-video',
  'reload-mid-call',
  'network-change',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export const CALLER_TONE_HZ = 440;
export const CALLEE_TONE_HZ = 660;
export const THIRD_TONE_HZ = 550;

/**
 * A server-side timer (the ring timeout, the reconnect grace) counts as the one configured when
 * what the harness measures falls within this fraction of it.
 */
export const TIMER_TOLERANCE = 0.2;

export interface Credentials {
  email: string;
  password: string;
}

export interface ScenarioOptions {
  url: string;
  /**
   * Several nodes of one cluster: caller, callee and third sign in to these in turn (the callee to
   * the second, …), so the call crosses nodes. Defaults to [url].
   */
  urls?: string[];
  caller: Credentials;
  callee: Credentials;
  /** The outsider of the busy scenario. */
  third?: Credentials;
  relayOnly?: boolean;
  /** Seconds a connected call is held, tone flowing, before the hang-up. */
  holdSeconds?: number;
  /** How long the server lets a call ring (its CALL_RING_TIMEOUT_MS), in seconds. */
  ringTimeoutSeconds?: number;
  /**
   * How long the server keeps an answered call for a party whose last connection dropped (its
   * CALL_RECONNECT_GRACE_MS), in seconds: peer-drop waits that long for connection-lost.
   */
  reconnectGraceSeconds?: number;
  /**
   * What the call carries: "video" turns each side's camera on (coded frames, video.ts). Absent:
   * the initiate carries no media, as the original client's, which means a voice call. The video
   * scenario always calls with video, upgrade-to-video always starts with audio.
   */
  media?: CallMedia;
  /** reload-mid-call: which side reloads (the callee by default). */
  reloader?: 'caller' | 'callee';
  /**
   * network-change, programmatic only: a real loss of the media path (a test pauses the TURN
   * server every relayed path goes through). Instead of restarting ICE itself, the scenario cuts
   * the path, expects the caller to restart ICE on its own once its connection has stayed
   * disconnected for 2 s, and restores the path.
   */
  pathCut?: { cut(): Promise<void> | void; restore(): Promise<void> | void };
  /** Longest wait for any one expected event, in milliseconds. */
  stepTimeoutMs?: number;
  origin?: string;
  /**
   * --network: the impaired sides' media goes through a lossy, late UDP relay to TURN (relay only
   * for them), changed mid-call as planned.
   */
  network?: NetworkPlan;
}

export interface SideAudio extends AudioReport {
  expectedHz: number;
  heard: boolean;
}

export interface SideVideo extends VideoReport {
  expectedTag: number;
  /** Enough decoded frames of the other side's picture, moving (VideoMeter.seesVideo). */
  seen: boolean;
}

export interface Timings {
  initiateToIncomingMs?: number;
  /** From the initiate to the caller's ringing (a device of the callee rang). */
  initiateToRingingMs?: number;
  acceptToAcceptedMs?: number;
  /** From the callee's accept to each side's connectionState "connected". */
  acceptToConnectedMs?: { caller: number; callee: number };
  /** From the initiate to both sides connected: the call set-up a user waits through. */
  initiateToConnectedMs?: number;
  /** From the accept to the first frame with sound at each side. */
  firstAudioFrameMs?: { caller: number | null; callee: number | null };
  /** From the initiate to the first frame with sound at the later side. */
  initiateToFirstSoundMs?: number;
  /** A video call: from the accept to each side's first decoded remote video frame. */
  firstVideoFrameMs?: { caller: number | null; callee: number | null };
  /** A video call's set-up: from the initiate to the first decoded remote frame at the later side. */
  initiateToFirstFrameMs?: number;
  /** ring-timeout: from the initiate to the caller's timeout hangup. */
  ringTimeoutMs?: number;
  /** peer-drop: from the drop to the remaining side's connection-lost hangup. */
  dropToConnectionLostMs?: number;
  /**
   * reload-mid-call: from the reloaded side's new connection starting to resume at both sides,
   * to both new RTCPeerConnections connected, and to sound again at the later side.
   */
  reconnectToResumeMs?: number;
  reconnectToConnectedMs?: number;
  reconnectToSoundMs?: number;
  /** upgrade-to-video, network-change: from the new offer sent to its answer received. */
  renegotiationMs?: number;
  /** upgrade-to-video: from the caller's camera on to the callee's first decoded frame of it. */
  upgradeToFirstFrameMs?: number;
}

export interface ScenarioReport {
  scenario: ScenarioName;
  ok: boolean;
  /** Why it failed; null when every expectation held. */
  reason: string | null;
  checks: string[];
  timings: Timings;
  relayOnly: boolean;
  audio?: { caller: SideAudio; callee: SideAudio };
  /** What each side saw of the other's video, when a camera was on. */
  video?: { caller: SideVideo; callee: SideVideo };
  paths?: { caller: SelectedPath | null; callee: SelectedPath | null };
  /** getStats() once a second on each side while its media was connected (quality.ts); absent when no media connected. */
  quality?: CallQuality;
  /** The reason of the last hangup or rejected each side received (null: none had one). */
  lastReason: { caller: string | null; callee: string | null };
  /**
   * Sockets that dropped before CONNECTED and were opened again, as the browser client does
   * (shared/stomp.ts), each as "label: why": reported, never hidden. Nothing is sent before
   * CONNECTED, so such a reconnect loses nothing; a drop after CONNECTED fails the scenario.
   */
  reconnects: string[];
}

class ExpectationFailed extends Error {}

/** Collects the expectations that held; the first that does not ends the scenario. */
class Expectations {
  readonly checks: string[] = [];

  check(description: string, holds: boolean, detail = ''): void {
    if (!holds) throw new ExpectationFailed(detail ? `${description}: ${detail}` : description);
    this.checks.push(description);
  }

  async step<T>(description: string, wait: Promise<T>): Promise<T> {
    try {
      const value = await wait;
      this.checks.push(description);
      return value;
    } catch (err) {
      throw new ExpectationFailed(`${description}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function within<T>(ms: number, what: string, wait: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms (${what})`)), ms);
  });
  return Promise.race([wait, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the condition holds, checked every 50 ms: for state no event announces. */
async function polled(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(50);
}
const rounded = (ms: number) => Math.round(ms);

/** How long a negative check ("nothing arrives") listens. */
const QUIET_WINDOW_MS = 1000;

interface Run {
  options: Required<Pick<ScenarioOptions, 'relayOnly' | 'holdSeconds' | 'ringTimeoutSeconds' | 'reconnectGraceSeconds' | 'stepTimeoutMs'>> & ScenarioOptions;
  expect: Expectations;
  timings: Timings;
  report: Partial<ScenarioReport>;
  caller: HeadlessCaller;
  callee: HeadlessCaller;
  third: HeadlessCaller | null;
  /** Signs the callee in again, as a new tab does. */
  reopenCallee(): Promise<HeadlessCaller>;
  /** The side's page reloads: its session connects again (HeadlessCaller.reload). */
  reload(side: HeadlessCaller): Promise<HeadlessCaller>;
}

export async function runScenario(scenario: ScenarioName, input: ScenarioOptions): Promise<ScenarioReport> {
  const options = { relayOnly: false, holdSeconds: 0, ringTimeoutSeconds: 60, reconnectGraceSeconds: 30, stepTimeoutMs: 20_000, ...input };
  if (scenario === 'video') options.media = 'video';
  if (scenario === 'upgrade-to-video') options.media = 'audio';
  const expect = new Expectations();
  const timings: Timings = {};
  const report: Partial<ScenarioReport> = {};
  const opened: HeadlessCaller[] = [];
  let reason: string | null = null;
  const network = options.network ? new ImpairedNetwork(options.network) : null;
  // --network-change-at counts from the moment the call's media first connects.
  const changeWatch = network?.plan.changes.length
    ? setInterval(() => {
        if (!opened.some((c) => c.peers.some((p) => p.connectedAt !== null))) return;
        network.startChanges();
        clearInterval(changeWatch);
      }, 50).unref()
    : undefined;
  try {
    if (scenario === 'busy' && !options.third) throw new ExpectationFailed('the busy scenario needs a third user (--third EMAIL:PASSWORD)');
    const urls = options.urls?.length ? options.urls : [options.url];
    const urlOf: Record<string, string> = { caller: urls[0], callee: urls[1 % urls.length], third: urls[2 % urls.length] };
    const open = async (label: string, credentials: Credentials, toneHz: number, expectHz: number, videoTag: number, expectVideoTag: number) => {
      const side = label.split(' ')[0];
      const baseUrl = urlOf[side] ?? options.url;
      const impaired = network !== null && (side === 'caller' || side === 'callee') && network.impairs(side);
      const iceServersFor = impaired ? (servers: IceServer[]) => network.iceServersFor(side, servers) : undefined;
      const caller = await expect.step(
        `${label} signs in, connects over STOMP and fetches ICE servers`,
        HeadlessCaller.connect({ baseUrl, ...credentials, label, toneHz, expectHz, videoTag, expectVideoTag, relayOnly: options.relayOnly || impaired, origin: options.origin, iceServersFor }),
      );
      opened.push(caller);
      return caller;
    };
    const caller = await open('caller', options.caller, CALLER_TONE_HZ, CALLEE_TONE_HZ, CALLER_VIDEO_TAG, CALLEE_VIDEO_TAG);
    const callee = await open('callee', options.callee, CALLEE_TONE_HZ, CALLER_TONE_HZ, CALLEE_VIDEO_TAG, CALLER_VIDEO_TAG);
    const third = options.third ? await open('third', options.third, THIRD_TONE_HZ, CALLER_TONE_HZ, THIRD_VIDEO_TAG, CALLER_VIDEO_TAG) : null;
    expect.check('caller and callee are different users', caller.userId !== callee.userId);
    if (options.relayOnly) {
      const turn = caller.iceServers.some((s) => [s.urls].flat().some((u) => /^turns?:/.test(u)));
      expect.check('the server offers a TURN server for relay-only calls', turn, 'no turn: URL in GET /api/call/ice-servers');
    }
    const reopenCallee = () => open('callee (reloaded)', options.callee, CALLEE_TONE_HZ, CALLER_TONE_HZ, CALLEE_VIDEO_TAG, CALLER_VIDEO_TAG);
    // With several nodes the reloaded page lands on the next one, so the resume crosses nodes too.
    const reload = async (side: HeadlessCaller) => {
      const node = urls[(urls.indexOf(side.session.baseUrl) + 1) % urls.length];
      const where = urls.length > 1 ? ` (on ${node})` : '';
      const back = await expect.step(`${side.label}'s page reloads: the same session connects and subscribes again${where}`, HeadlessCaller.reload(side, undefined, node));
      opened.push(back);
      return back;
    };
    const run: Run = { options, expect, timings, report, caller, callee, third, reopenCallee, reload };
    await SCENARIO_RUNNERS[scenario](run);
    for (const side of opened) {
      expect.check(`${side.label} saw no protocol error`, side.problems.length === 0, side.problems.join('; '));
      expect.check(`${side.label} received no signalling from outside its call`, side.foreignSignals.length === 0, describeForeign(side.foreignSignals));
    }
  } catch (err) {
    if (!(err instanceof ExpectationFailed)) throw err;
    reason = err.message;
    const problems = opened.flatMap((c) => c.problems);
    if (problems.length > 0) reason += ` (also seen: ${problems.join('; ')})`;
  } finally {
    clearInterval(changeWatch);
    await Promise.allSettled(opened.map((c) => c.close()));
    network?.close();
  }
  const probesOf = (label: string) => opened.filter((c) => c.label.startsWith(label)).flatMap((c) => c.peers.map((p) => p.quality));
  const quality = callQuality({ caller: probesOf('caller'), callee: probesOf('callee') }, network);
  if (quality) report.quality = quality;
  const lastReason = (label: string) => {
    const events = opened.filter((c) => c.label.startsWith(label)).flatMap((c) => c.received);
    const last = events.filter((e) => e.signal === 'hangup' || e.signal === 'rejected').sort((a, b) => a.at - b.at).at(-1);
    return last?.event.reason ?? null;
  };
  const lastReasons = { caller: lastReason('caller'), callee: lastReason('callee') };
  const reconnects = opened.flatMap((c) => c.reconnects.map((why) => `${c.label}: ${why}`));
  return { scenario, ok: reason === null, reason, checks: expect.checks, timings, relayOnly: options.relayOnly, ...report, lastReason: lastReasons, reconnects };
}

function describeForeign(events: ReceivedEvent[]): string {
  return events.map((e) => `${e.signal} from user ${e.event.userId}`).join(', ');
}

interface Ringing {
  /** performance.now() when the initiate went out, and when the callee's incoming arrived. */
  started: number;
  incomingAt: number;
}

/** The caller rings, the callee sees who is calling and with what media. */
async function ring({ caller, callee, expect, timings, options }: Run): Promise<Ringing> {
  const started = performance.now();
  caller.initiate(callee.userId, options.media);
  const incoming = await expect.step('callee receives incoming from the caller', callee.waitFor('incoming', caller.userId, options.stepTimeoutMs));
  timings.initiateToIncomingMs = rounded(incoming.at - started);
  expect.check(`incoming carries the caller's name "${caller.name}"`, incoming.event.name === caller.name, `got ${JSON.stringify(incoming.event.name)}`);
  if (options.media === 'video') expect.check('incoming says it is a video call', incoming.event.media === 'video', `media ${incoming.event.media}`);
  // The caller's screen says '전화 거는 중…' only once a device of the callee rings (docs/protocol.md "Call events").
  const ringing = await expect.step('caller receives ringing from the callee', caller.waitFor('ringing', callee.userId, options.stepTimeoutMs));
  timings.initiateToRingingMs = rounded(ringing.at - started);
  expect.check('ringing names the call incoming named', !!ringing.event.callId && ringing.event.callId === incoming.event.callId, `${ringing.event.callId} / ${incoming.event.callId}`);
  return { started, incomingAt: incoming.at };
}

/** The callee accepts and both sides' media connects. Returns the accept time. */
async function connect(run: Run, started: number): Promise<number> {
  const { caller, callee, expect, timings, options } = run;
  const accepted = performance.now();
  callee.accept(caller.userId);
  const event = await expect.step('caller receives accepted from the callee', caller.waitFor('accepted', callee.userId, options.stepTimeoutMs));
  timings.acceptToAcceptedMs = rounded(event.at - accepted);
  if (options.media === 'video') expect.check('accepted says it is a video call', event.event.media === 'video', `media ${event.event.media}`);
  await connected(run, [caller, callee]);
  const callerAt = caller.peer?.connectedAt ?? 0;
  const calleeAt = callee.peer?.connectedAt ?? 0;
  timings.acceptToConnectedMs = { caller: rounded(callerAt - accepted), callee: rounded(calleeAt - accepted) };
  timings.initiateToConnectedMs = rounded(Math.max(callerAt, calleeAt) - started);
  return accepted;
}

/** Each side's current RTCPeerConnection reaches connected (and not failed). */
async function connected({ expect, options }: Run, sides: HeadlessCaller[], what = ''): Promise<void> {
  for (const side of sides) {
    const peer = side.peer;
    if (!peer) throw new ExpectationFailed(`${side.label} has no peer connection${what}`);
    await expect.step(
      `${side.label}'s connection reaches connected${what}`,
      within(options.stepTimeoutMs, `${side.label} is ${peer.connectionState}`, peer.until(() => peer.connectedAt !== null || peer.failedAt !== null)),
    );
    expect.check(`${side.label}'s connection did not fail${what}`, peer.failedAt === null);
  }
}

/** Each side hears the other's tone on its current connection. */
async function hears({ expect, options }: Run, sides: HeadlessCaller[], what = ''): Promise<void> {
  for (const side of sides) {
    const peer = side.peer!;
    const meter = peer.meter;
    await expect.step(
      `${side.label} hears the other side's ${meter.expectedHz} Hz tone${what}`,
      within(options.stepTimeoutMs, `${side.label} measured ${JSON.stringify(meter.report())}`, peer.until(() => meter.hearsTone())),
    );
  }
}

/** Each side sees the other's coded video, moving, on its current connection. */
async function sees({ expect, options }: Run, sides: HeadlessCaller[], what = ''): Promise<void> {
  for (const side of sides) {
    const peer = side.peer!;
    await expect.step(
      `${side.label} sees the other side's video${what}`,
      within(options.stepTimeoutMs, `${side.label} measured ${JSON.stringify(peer.video.report())}`, peer.until(() => peer.video.seesVideo())),
    );
  }
}

function sideAudio(side: HeadlessCaller): SideAudio {
  const meter = side.peer!.meter;
  return { expectedHz: meter.expectedHz, heard: meter.hearsTone(), ...meter.report() };
}

function sideVideo(side: HeadlessCaller): SideVideo {
  const meter = side.peer!.video;
  return { expectedTag: meter.expectedTag, seen: meter.seesVideo(), ...meter.report() };
}

/** After `from` (performance.now()), or null when it never happened. */
const since = (at: number | null, from: number) => (at === null ? null : rounded(at - from));

/**
 * A call that connects and talks: each side hears the other's tone and, with the cameras on,
 * sees the other's video; held with --hold, then the caller hangs up. accept and video.
 */
async function talk(run: Run): Promise<void> {
  const { caller, callee, expect, timings, report, options } = run;
  const { started } = await ring(run);
  const accepted = await connect(run, started);
  await hears(run, [caller, callee]);
  const firstSound = (side: HeadlessCaller) => since(side.peer!.meter.report().firstSoundAt, accepted);
  timings.firstAudioFrameMs = { caller: firstSound(caller), callee: firstSound(callee) };
  timings.initiateToFirstSoundMs = rounded(Math.max(caller.peer!.meter.report().firstSoundAt!, callee.peer!.meter.report().firstSoundAt!) - started);
  if (options.media === 'video') {
    await sees(run, [caller, callee]);
    const firstFrame = (side: HeadlessCaller) => side.peer!.video.report().firstDecodedAt;
    timings.firstVideoFrameMs = { caller: since(firstFrame(caller), accepted), callee: since(firstFrame(callee), accepted) };
    timings.initiateToFirstFrameMs = rounded(Math.max(firstFrame(caller)!, firstFrame(callee)!) - started);
  }
  report.paths = { caller: await caller.peer!.selectedPath(), callee: await callee.peer!.selectedPath() };
  for (const side of ['caller', 'callee'] as const) {
    const impaired = options.network && (options.network.side === 'both' || options.network.side === side);
    if (!options.relayOnly && !impaired) continue;
    const path = report.paths[side];
    const through = impaired ? 'the impaired network to the TURN relay' : 'the TURN relay';
    expect.check(`${side}'s media goes through ${through}`, path?.local === 'relay', `selected path ${JSON.stringify(path)}`);
  }
  if (options.holdSeconds > 0) {
    const before = { caller: caller.peer!.meter.report().soundFrames, callee: callee.peer!.meter.report().soundFrames };
    const framesBefore = { caller: caller.peer!.video.report().framesDecoded, callee: callee.peer!.video.report().framesDecoded };
    await sleep(options.holdSeconds * 1000);
    for (const side of [caller, callee]) {
      const label = side.label as 'caller' | 'callee';
      expect.check(`${side.label} is still connected after ${options.holdSeconds} s`, side.peer!.connectionState === 'connected', side.peer!.connectionState);
      expect.check(`${side.label} kept hearing the tone while holding`, side.peer!.meter.report().soundFrames > before[label]);
      if (options.media === 'video') expect.check(`${side.label} kept seeing video while holding`, side.peer!.video.report().framesDecoded > framesBefore[label]);
    }
  }
  report.audio = { caller: sideAudio(caller), callee: sideAudio(callee) };
  if (options.media === 'video') report.video = { caller: sideVideo(caller), callee: sideVideo(callee) };
  caller.hangup();
  await expect.step('callee receives the caller’s hangup', callee.waitFor('hangup', caller.userId, options.stepTimeoutMs));
  for (const side of [caller, callee]) expect.check(`${side.label}'s connection is closed after the hang-up`, side.peer!.connectionState === 'closed');
}

/**
 * A server timer of `configuredMs` started somewhere between `from` and `seen` (the initiate and
 * the incoming it caused, the drop and the peer-reconnecting) and fired before `at`: it is
 * checked against the window so that delivery delays never fail it (the longest reading for the
 * lower bound, the shortest for the upper).
 */
function timerHeld({ expect }: Run, description: string, configuredMs: number, from: number, seen: number, at: number): void {
  const longest = at - from;
  const shortest = at - seen;
  const low = configuredMs * (1 - TIMER_TOLERANCE);
  const high = configuredMs * (1 + TIMER_TOLERANCE);
  expect.check(description, longest >= low && shortest <= high, `measured ${rounded(shortest)}–${rounded(longest)} ms, expected ${rounded(low)}–${rounded(high)} ms`);
}

const SCENARIO_RUNNERS: Record<ScenarioName, (run: Run) => Promise<void>> = {
  async accept(run) {
    await talk(run);
  },

  async video(run) {
    await talk(run);
  },

  async reject(run) {
    const { caller, callee, expect, options } = run;
    await ring(run);
    callee.reject(caller.userId);
    const rejected = await expect.step('caller receives rejected from the callee', caller.waitFor('rejected', callee.userId, options.stepTimeoutMs));
    expect.check('the rejection is not a busy signal', rejected.event.reason !== 'busy', `reason ${rejected.event.reason}`);
    expect.check('no media was set up for a rejected call', caller.peer === null && callee.peer === null);
  },

  async 'hangup-while-ringing'(run) {
    const { caller, callee, expect, options } = run;
    await ring(run);
    caller.hangup();
    await expect.step('callee receives the caller’s hangup while ringing', callee.waitFor('hangup', caller.userId, options.stepTimeoutMs));
    // The callee's late accept must not revive the call.
    callee.accept(caller.userId);
    const late = await caller.nothingWithin('accepted', QUIET_WINDOW_MS);
    expect.check('an accept after the hang-up reaches nobody', late === null);
    callee.hangup();
  },

  async busy(run) {
    const { caller, callee, third, expect, options } = run;
    if (!third) throw new ExpectationFailed('the busy scenario needs a third user');
    await ring(run);
    third.initiate(callee.userId);
    const whileRinging = await expect.step('third, calling the ringing callee, receives rejected', third.waitFor('rejected', callee.userId, options.stepTimeoutMs));
    expect.check('that rejection says busy', whileRinging.event.reason === 'busy', `reason ${whileRinging.event.reason}`);
    const stray = await callee.nothingWithin('incoming', QUIET_WINDOW_MS);
    expect.check('the ringing callee is not rung a second time', stray === null, `incoming from user ${stray?.event.userId}`);
    callee.accept(caller.userId);
    await expect.step('caller receives accepted from the callee', caller.waitFor('accepted', callee.userId, options.stepTimeoutMs));
    for (const target of [caller, callee]) {
      third.initiate(target.userId);
      const inCall = await expect.step(`third, calling the ${target.label} who is in a call, receives rejected`, third.waitFor('rejected', target.userId, options.stepTimeoutMs));
      expect.check('that rejection says busy', inCall.event.reason === 'busy', `reason ${inCall.event.reason}`);
    }
    caller.hangup();
    await expect.step('callee receives the caller’s hangup', callee.waitFor('hangup', caller.userId, options.stepTimeoutMs));
  },

  async 'ring-timeout'(run) {
    const { caller, callee, expect, options, timings } = run;
    const { started, incomingAt } = await ring(run);
    const ringMs = options.ringTimeoutSeconds * 1000;
    const wait = ringMs * (1 + TIMER_TOLERANCE) + options.stepTimeoutMs;
    const [toCaller, toCallee] = await Promise.all([
      expect.step('caller receives a hangup when nobody answers', caller.waitFor('hangup', callee.userId, wait)),
      expect.step('callee receives a hangup when it does not answer', callee.waitFor('hangup', caller.userId, wait)),
    ]);
    timings.ringTimeoutMs = rounded(toCaller.at - started);
    for (const [side, e] of [['caller', toCaller], ['callee', toCallee]] as const) {
      expect.check(`${side}'s hangup says the ring timed out`, e.event.reason === 'timeout', `reason ${e.event.reason}`);
      timerHeld(run, `${side}'s timeout came after the ring timeout of ${options.ringTimeoutSeconds} s (±${TIMER_TOLERANCE * 100} %)`, ringMs, started, incomingAt, e.at);
    }
    callee.accept(caller.userId);
    const late = await caller.nothingWithin('accepted', QUIET_WINDOW_MS);
    expect.check('an accept after the ring timeout reaches nobody', late === null);
  },

  async unavailable(run) {
    const { caller, callee, expect, options } = run;
    // The callee has no open tab: their connection is gone before the call, on every node.
    await callee.close();
    await expect.step('the server shows the callee offline', caller.seesOffline(callee, options.stepTimeoutMs));
    caller.initiate(callee.userId);
    const hangup = await expect.step('caller receives a hangup at once for a callee with no open connection', caller.waitFor('hangup', callee.userId, options.stepTimeoutMs));
    expect.check('that hangup says the callee is unavailable', hangup.event.reason === 'unavailable', `reason ${hangup.event.reason}`);
    expect.check('it names the callee in targetUserId', hangup.event.targetUserId === callee.userId, `targetUserId ${hangup.event.targetUserId}`);
  },

  async 'reload-while-ringing'(run) {
    const { caller, callee, expect, options } = run;
    await ring(run);
    // The callee's page reloads: the connection drops, a new one comes.
    await callee.drop();
    const gone = await caller.nothingWithin('hangup', QUIET_WINDOW_MS);
    expect.check('the call keeps ringing while the callee reloads', gone === null, `hangup ${gone?.event.reason}`);
    const reloaded = await run.reopenCallee();
    const incoming = await expect.step('the reloaded callee is rung again', reloaded.waitFor('incoming', caller.userId, options.stepTimeoutMs));
    expect.check(`the repeated incoming carries the caller's name "${caller.name}"`, incoming.event.name === caller.name, `got ${JSON.stringify(incoming.event.name)}`);
    reloaded.reject(caller.userId);
    const rejected = await expect.step('caller receives rejected from the reloaded callee', caller.waitFor('rejected', callee.userId, options.stepTimeoutMs));
    expect.check('that rejection says rejected', rejected.event.reason === 'rejected', `reason ${rejected.event.reason}`);
  },

  async 'peer-drop'(run) {
    const { caller, callee, expect, options, timings } = run;
    const { started } = await ring(run);
    await connect(run, started);
    const dropped = performance.now();
    await callee.drop();
    // An answered call outlives a dropped connection for the reconnect grace (docs/protocol.md "Call events").
    const reconnecting = await expect.step('caller receives peer-reconnecting when the callee’s connection drops', caller.waitFor('peer-reconnecting', callee.userId, options.stepTimeoutMs));
    const graceMs = options.reconnectGraceSeconds * 1000;
    const hangup = await expect.step(
      'caller receives a hangup once the reconnect grace has passed',
      caller.waitFor('hangup', callee.userId, graceMs * (1 + TIMER_TOLERANCE) + options.stepTimeoutMs),
    );
    timings.dropToConnectionLostMs = rounded(hangup.at - dropped);
    expect.check('that hangup says the connection was lost', hangup.event.reason === 'connection-lost', `reason ${hangup.event.reason}`);
    timerHeld(run, `it came after the reconnect grace of ${options.reconnectGraceSeconds} s (±${TIMER_TOLERANCE * 100} %)`, graceMs, dropped, reconnecting.at, hangup.at);
    expect.check('caller’s connection is closed after the peer was lost', caller.peer!.connectionState === 'closed');
  },

  async 'upgrade-to-video'(run) {
    const { caller, callee, expect, options, timings, report } = run;
    const { started } = await ring(run);
    await connect(run, started);
    await hears(run, [caller, callee]);
    const upgraded = performance.now();
    expect.check('the caller turns its camera on in the voice call', caller.startCamera());
    await expect.step('callee receives the caller’s new offer (with video)', callee.waitFor('offer', caller.userId, options.stepTimeoutMs, upgraded));
    const answer = await expect.step('caller receives the callee’s answer', caller.waitFor('answer', callee.userId, options.stepTimeoutMs, upgraded));
    timings.renegotiationMs = rounded(answer.at - upgraded);
    caller.sendMediaState({ muted: false, camera: true, screen: false });
    const state = await expect.step('callee receives the caller’s media-state', callee.waitFor('media-state', caller.userId, options.stepTimeoutMs));
    expect.check('it says the camera is on, not muted, no screen', state.event.camera === true && state.event.muted === false && state.event.screen === false, JSON.stringify(state.event));
    await sees(run, [callee]);
    timings.upgradeToFirstFrameMs = since(callee.peer!.video.report().firstDecodedAt, upgraded) ?? undefined;
    // The other way round: the callee renegotiates, the caller answers (offers go both ways in a call).
    const answered = performance.now();
    expect.check('the callee turns its camera on too', callee.startCamera());
    await expect.step('caller receives the callee’s offer', caller.waitFor('offer', callee.userId, options.stepTimeoutMs, answered));
    await expect.step('callee receives the caller’s answer', callee.waitFor('answer', caller.userId, options.stepTimeoutMs, answered));
    await sees(run, [caller]);
    expect.check('the upgrade kept each side’s connection', caller.peers.length === 1 && callee.peers.length === 1, `caller ${caller.peers.length}, callee ${callee.peers.length}`);
    for (const side of [caller, callee]) {
      expect.check(`${side.label} still hears the tone after the upgrade`, side.peer!.meter.hearsTone() && side.peer!.connectionState === 'connected', JSON.stringify(side.peer!.meter.report()));
    }
    report.audio = { caller: sideAudio(caller), callee: sideAudio(callee) };
    report.video = { caller: sideVideo(caller), callee: sideVideo(callee) };
    caller.hangup();
    await expect.step('callee receives the caller’s hangup', callee.waitFor('hangup', caller.userId, options.stepTimeoutMs));
  },

  async 'reload-mid-call'(run) {
    const { caller, callee, expect, options, timings, report } = run;
    const { started } = await ring(run);
    await connect(run, started);
    await hears(run, [caller, callee]);
    if (options.media === 'video') await sees(run, [caller, callee]);
    const leaving = options.reloader === 'caller' ? caller : callee;
    const staying = leaving === caller ? callee : caller;
    // The page reloads: its socket and its RTCPeerConnection are gone at once, no DISCONNECT.
    await leaving.drop();
    await expect.step(`${staying.label} receives peer-reconnecting`, staying.waitFor('peer-reconnecting', leaving.userId, options.stepTimeoutMs));
    const reconnected = performance.now();
    const back = await run.reload(leaving);
    const [toBack, toStaying] = await Promise.all([
      expect.step(`the reloaded ${leaving.label} receives resume`, back.waitFor('resume', staying.userId, options.stepTimeoutMs)),
      expect.step(`${staying.label} receives resume`, staying.waitFor('resume', leaving.userId, options.stepTimeoutMs)),
    ]);
    timings.reconnectToResumeMs = rounded(Math.max(toBack.at, toStaying.at) - reconnected);
    expect.check('both resumes name the same call', !!toBack.event.callId && toBack.event.callId === toStaying.event.callId, `${toBack.event.callId} / ${toStaying.event.callId}`);
    const roleOf = (side: HeadlessCaller) => (side === caller ? 'caller' : 'callee');
    expect.check(
      'each resume gives that side its role in the call',
      toBack.event.role === roleOf(leaving) && toStaying.event.role === roleOf(staying),
      `reloaded ${toBack.event.role}, staying ${toStaying.event.role}`,
    );
    const media = options.media ?? 'audio';
    expect.check(`each resume says the call is ${media}`, toBack.event.media === media && toStaying.event.media === media, `${toBack.event.media} / ${toStaying.event.media}`);
    await connected(run, [back, staying], ' again');
    expect.check(`${staying.label} built a new connection`, staying.peers.length === 2, `${staying.peers.length} connections`);
    timings.reconnectToConnectedMs = rounded(Math.max(back.peer!.connectedAt!, staying.peer!.connectedAt!) - reconnected);
    await hears(run, [back, staying], ' again');
    timings.reconnectToSoundMs = rounded(Math.max(back.peer!.meter.report().firstSoundAt!, staying.peer!.meter.report().firstSoundAt!) - reconnected);
    if (options.media === 'video') await sees(run, [back, staying], ' again');
    const ended = staying.received.find((e) => e.signal === 'hangup');
    expect.check('the call never ended', ended === undefined, `hangup ${ended?.event.reason}`);
    const [callerNow, calleeNow] = leaving === caller ? [back, callee] : [caller, back];
    report.audio = { caller: sideAudio(callerNow), callee: sideAudio(calleeNow) };
    if (options.media === 'video') report.video = { caller: sideVideo(callerNow), callee: sideVideo(calleeNow) };
    staying.hangup();
    await expect.step(`the reloaded ${leaving.label} receives the hangup`, back.waitFor('hangup', staying.userId, options.stepTimeoutMs));
  },

  async 'network-change'(run) {
    const { caller, callee, expect, options, timings, report } = run;
    const { started } = await ring(run);
    await connect(run, started);
    await hears(run, [caller, callee]);
    const before = { caller: caller.peer!.localIceUfrag, callee: callee.peer!.localIceUfrag };
    const sound = { caller: caller.peer!.meter.report().soundFrames, callee: callee.peer!.meter.report().soundFrames };
    const restarted = performance.now();
    if (options.pathCut) {
      await options.pathCut.cut();
      try {
        await expect.step(
          'the caller restarts ICE by itself once its connection stays disconnected',
          within(options.stepTimeoutMs, `caller is ${caller.peer!.connectionState} after ${caller.iceRestarts} restarts`, polled(() => caller.iceRestarts > 0)),
        );
      } finally {
        await options.pathCut.restore();
      }
    } else {
      caller.restartIce();
    }
    await expect.step('callee receives the caller’s ICE-restart offer', callee.waitFor('offer', caller.userId, options.stepTimeoutMs, restarted));
    const answer = await expect.step('caller receives the callee’s answer', caller.waitFor('answer', callee.userId, options.stepTimeoutMs, restarted));
    timings.renegotiationMs = rounded(answer.at - restarted);
    expect.check('the offer carried new ICE credentials', caller.peer!.localIceUfrag !== before.caller, `ufrag ${before.caller} → ${caller.peer!.localIceUfrag}`);
    expect.check('the answer carried new ICE credentials', callee.peer!.localIceUfrag !== before.callee, `ufrag ${before.callee} → ${callee.peer!.localIceUfrag}`);
    for (const side of [caller, callee]) {
      const peer = side.peer!;
      const label = side.label as 'caller' | 'callee';
      await expect.step(
        `${side.label} is connected and hears the tone after the ICE restart`,
        within(options.stepTimeoutMs, `${side.label} is ${peer.connectionState}, measured ${JSON.stringify(peer.meter.report())}`, peer.until(
          () => peer.connectionState === 'connected' && peer.meter.report().soundFrames >= sound[label] + 50 && peer.meter.hearsTone(),
        )),
      );
    }
    if (options.media === 'video') await sees(run, [caller, callee]);
    expect.check('the call kept each side’s connection', caller.peers.length === 1 && callee.peers.length === 1, `caller ${caller.peers.length}, callee ${callee.peers.length}`);
    report.paths = { caller: await caller.peer!.selectedPath(), callee: await callee.peer!.selectedPath() };
    report.audio = { caller: sideAudio(caller), callee: sideAudio(callee) };
    if (options.media === 'video') report.video = { caller: sideVideo(caller), callee: sideVideo(callee) };
    caller.hangup();
    await expect.step('callee receives the caller’s hangup', callee.waitFor('hangup', caller.userId, options.stepTimeoutMs));
  },
};
