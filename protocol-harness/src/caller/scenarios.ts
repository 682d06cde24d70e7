// The call scenarios: two (for busy, three) headless callers go through one flow against a
// running server, and every expectation of docs/spec.md §4 Call and of our server's call rules (docs/protocol.md) is
// checked from what each side observes. A report lists the expectations that held, the one
// that failed, the timings and the audio measured.
import type { AudioReport } from './audio-meter';
import { HeadlessCaller, type ReceivedEvent } from './caller';
import type { SelectedPath } from './peer';

export const SCENARIOS = ['accept', 'reject', 'hangup-while-ringing', 'busy', 'ring-timeout', 'peer-drop', 'unavailable', 'reload-while-ringing'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export const CALLER_TONE_HZ = 440;
export const CALLEE_TONE_HZ = 660;
export const THIRD_TONE_HZ = 550;

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
  /** Longest wait for any one expected event, in milliseconds. */
  stepTimeoutMs?: number;
  origin?: string;
}

export interface SideAudio extends AudioReport {
  expectedHz: number;
  heard: boolean;
}

export interface Timings {
  initiateToIncomingMs?: number;
  acceptToAcceptedMs?: number;
  /** From the callee's accept to each side's connectionState "connected". */
  acceptToConnectedMs?: { caller: number; callee: number };
  /** From the initiate to both sides connected: the call set-up a user waits through. */
  initiateToConnectedMs?: number;
  /** From the accept to the first frame with sound at each side. */
  firstAudioFrameMs?: { caller: number | null; callee: number | null };
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
  paths?: { caller: SelectedPath | null; callee: SelectedPath | null };
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
const rounded = (ms: number) => Math.round(ms);

/** How long a negative check ("nothing arrives") listens. */
const QUIET_WINDOW_MS = 1000;

interface Run {
  options: Required<Pick<ScenarioOptions, 'relayOnly' | 'holdSeconds' | 'ringTimeoutSeconds' | 'stepTimeoutMs'>> & ScenarioOptions;
  expect: Expectations;
  timings: Timings;
  report: Partial<ScenarioReport>;
  caller: HeadlessCaller;
  callee: HeadlessCaller;
  third: HeadlessCaller | null;
  /** Signs the callee in again, as a reloaded page does. */
  reopenCallee(): Promise<HeadlessCaller>;
}

export async function runScenario(scenario: ScenarioName, input: ScenarioOptions): Promise<ScenarioReport> {
  const options = { relayOnly: false, holdSeconds: 0, ringTimeoutSeconds: 60, stepTimeoutMs: 20_000, ...input };
  const expect = new Expectations();
  const timings: Timings = {};
  const report: Partial<ScenarioReport> = {};
  const opened: HeadlessCaller[] = [];
  let reason: string | null = null;
  try {
    if (scenario === 'busy' && !options.third) throw new ExpectationFailed('the busy scenario needs a third user (--third EMAIL:PASSWORD)');
    const urls = options.urls?.length ? options.urls : [options.url];
    const urlOf: Record<string, string> = { caller: urls[0], callee: urls[1 % urls.length], third: urls[2 % urls.length] };
    const open = async (label: string, credentials: Credentials, toneHz: number, expectHz: number) => {
      const baseUrl = urlOf[label.split(' ')[0]] ?? options.url;
      const caller = await expect.step(
        `${label} signs in, connects over STOMP and fetches ICE servers`,
        HeadlessCaller.connect({ baseUrl, ...credentials, label, toneHz, expectHz, relayOnly: options.relayOnly, origin: options.origin }),
      );
      opened.push(caller);
      return caller;
    };
    const caller = await open('caller', options.caller, CALLER_TONE_HZ, CALLEE_TONE_HZ);
    const callee = await open('callee', options.callee, CALLEE_TONE_HZ, CALLER_TONE_HZ);
    const third = options.third ? await open('third', options.third, THIRD_TONE_HZ, CALLER_TONE_HZ) : null;
    expect.check('caller and callee are different users', caller.userId !== callee.userId);
    if (options.relayOnly) {
      const turn = caller.iceServers.some((s) => [s.urls].flat().some((u) => /^turns?:/.test(u)));
      expect.check('the server offers a TURN server for relay-only calls', turn, 'no turn: URL in GET /api/call/ice-servers');
    }
    const reopenCallee = () => open('callee (reloaded)', options.callee, CALLEE_TONE_HZ, CALLER_TONE_HZ);
    const run: Run = { options, expect, timings, report, caller, callee, third, reopenCallee };
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
    await Promise.allSettled(opened.map((c) => c.close()));
  }
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

/** The caller rings, the callee sees who is calling. Returns the initiate time. */
async function ring({ caller, callee, expect, timings, options }: Run): Promise<number> {
  const started = performance.now();
  caller.initiate(callee.userId);
  const incoming = await expect.step('callee receives incoming from the caller', callee.waitFor('incoming', caller.userId, options.stepTimeoutMs));
  timings.initiateToIncomingMs = rounded(incoming.at - started);
  expect.check(`incoming carries the caller's name "${caller.name}"`, incoming.event.name === caller.name, `got ${JSON.stringify(incoming.event.name)}`);
  return started;
}

/** The callee accepts and both sides' media connects. Returns the accept time. */
async function connect(run: Run, started: number): Promise<number> {
  const { caller, callee, expect, timings, options } = run;
  const accepted = performance.now();
  callee.accept(caller.userId);
  const event = await expect.step('caller receives accepted from the callee', caller.waitFor('accepted', callee.userId, options.stepTimeoutMs));
  timings.acceptToAcceptedMs = rounded(event.at - accepted);
  for (const side of [caller, callee]) {
    const peer = side.peer;
    if (!peer) throw new ExpectationFailed(`${side.label} has no peer connection after accept`);
    await expect.step(
      `${side.label}'s connection reaches connected`,
      within(options.stepTimeoutMs, `${side.label} is ${peer.connectionState}`, peer.until(() => peer.connectedAt !== null || peer.failedAt !== null)),
    );
    expect.check(`${side.label}'s connection did not fail`, peer.failedAt === null);
  }
  const callerAt = caller.peer?.connectedAt ?? 0;
  const calleeAt = callee.peer?.connectedAt ?? 0;
  timings.acceptToConnectedMs = { caller: rounded(callerAt - accepted), callee: rounded(calleeAt - accepted) };
  timings.initiateToConnectedMs = rounded(Math.max(callerAt, calleeAt) - started);
  return accepted;
}

function sideAudio(side: HeadlessCaller): SideAudio {
  const meter = side.peer!.meter;
  return { expectedHz: meter.expectedHz, heard: meter.hearsTone(), ...meter.report() };
}

const SCENARIO_RUNNERS: Record<ScenarioName, (run: Run) => Promise<void>> = {
  async accept(run) {
    const { caller, callee, expect, timings, report, options } = run;
    const started = await ring(run);
    const accepted = await connect(run, started);
    for (const side of [caller, callee]) {
      const meter = side.peer!.meter;
      await expect.step(
        `${side.label} hears the other side's ${meter.expectedHz} Hz tone`,
        within(options.stepTimeoutMs, `${side.label} measured ${JSON.stringify(meter.report())}`, side.peer!.until(() => meter.hearsTone())),
      );
    }
    const firstSound = (side: HeadlessCaller) => {
      const at = side.peer!.meter.report().firstSoundAt;
      return at === null ? null : rounded(at - accepted);
    };
    timings.firstAudioFrameMs = { caller: firstSound(caller), callee: firstSound(callee) };
    report.paths = { caller: await caller.peer!.selectedPath(), callee: await callee.peer!.selectedPath() };
    if (options.relayOnly) {
      for (const side of ['caller', 'callee'] as const) {
        const path = report.paths[side];
        expect.check(`${side}'s media goes through the TURN relay`, path?.local === 'relay', `selected path ${JSON.stringify(path)}`);
      }
    }
    if (options.holdSeconds > 0) {
      const before = { caller: caller.peer!.meter.report().soundFrames, callee: callee.peer!.meter.report().soundFrames };
      await sleep(options.holdSeconds * 1000);
      for (const side of [caller, callee]) {
        expect.check(`${side.label} is still connected after ${options.holdSeconds} s`, side.peer!.connectionState === 'connected', side.peer!.connectionState);
        expect.check(`${side.label} kept hearing the tone while holding`, side.peer!.meter.report().soundFrames > before[side.label as 'caller' | 'callee']);
      }
    }
    report.audio = { caller: sideAudio(caller), callee: sideAudio(callee) };
    caller.hangup();
    await expect.step('callee receives the caller’s hangup', callee.waitFor('hangup', caller.userId, options.stepTimeoutMs));
    for (const side of [caller, callee]) expect.check(`${side.label}'s connection is closed after the hang-up`, side.peer!.connectionState === 'closed');
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
    const { caller, callee, expect, options } = run;
    await ring(run);
    const wait = options.ringTimeoutSeconds * 1000 + options.stepTimeoutMs;
    const [toCaller, toCallee] = await Promise.all([
      expect.step('caller receives a hangup when nobody answers', caller.waitFor('hangup', callee.userId, wait)),
      expect.step('callee receives a hangup when it does not answer', callee.waitFor('hangup', caller.userId, wait)),
    ]);
    for (const [side, e] of [['caller', toCaller], ['callee', toCallee]] as const) {
      expect.check(`${side}'s hangup says the ring timed out`, e.event.reason === 'timeout', `reason ${e.event.reason}`);
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
    const { caller, callee, expect, options } = run;
    const started = await ring(run);
    await connect(run, started);
    await callee.drop();
    const hangup = await expect.step('caller receives a hangup when the callee’s connection drops', caller.waitFor('hangup', callee.userId, options.stepTimeoutMs));
    expect.check('that hangup says the peer disconnected', hangup.event.reason === 'disconnected', `reason ${hangup.event.reason}`);
    expect.check('caller’s connection is closed after the peer dropped', caller.peer!.connectionState === 'closed');
  },
};
