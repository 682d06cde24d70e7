// A call run's report: the scenario's report plus the verdict of the CI contract (exit status,
// JUnit cases), and its human-readable summary (--json prints the report itself).
import type { JUnitSuite } from '../shared/junit';
import { EXIT, type StopSignal } from '../shared/outcome';
import type { ScenarioReport, SideAudio, SideVideo } from './scenarios';

export interface CallRunReport extends ScenarioReport {
  /** Stopped by SIGINT or SIGTERM before the scenario ended: exit 130 or 143. */
  interrupted: boolean;
  signal?: StopSignal;
  /** What the failure was: the system's (1), or the test could not run (2); null when it passed. */
  failure: 'expectation' | 'infrastructure' | null;
  exitCode: number;
}

/**
 * Failed steps that say the test could not run rather than that the call misbehaved: a user
 * could not sign in (server unreachable, login refused), or relay-only was asked of a server that
 * hands out no TURN server. Matched on the steps' descriptions (caller/scenarios.ts).
 */
const INFRASTRUCTURE_STEPS = [/^[\w ()]+ signs in, connects over STOMP and fetches ICE servers: /, /^the server offers a TURN server for relay-only calls/, /^server unreachable: /, /^could not run: /];

export function failureKind(reason: string | null): CallRunReport['failure'] {
  if (reason === null) return null;
  return INFRASTRUCTURE_STEPS.some((re) => re.test(reason)) ? 'infrastructure' : 'expectation';
}

export function withCallVerdict(report: ScenarioReport, signal: StopSignal | null): CallRunReport {
  const failure = signal ? null : failureKind(report.reason);
  const exitCode = signal ? (signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint) : failure === 'infrastructure' ? EXIT.infrastructure : report.ok ? EXIT.passed : EXIT.failed;
  return { ...report, ok: report.ok && !signal, interrupted: signal !== null, ...(signal ? { signal } : {}), failure, exitCode };
}

/** A testcase per expectation that held, and one for the first that did not (the scenario stops there). */
export function callJUnit(r: CallRunReport, startedAt: Date, seconds: number): JUnitSuite {
  const classname = `harness.call.${r.scenario}`;
  const cases: JUnitSuite['cases'] = r.checks.map((name) => ({ name, classname, failure: null }));
  if (r.reason !== null) {
    const at = r.reason.indexOf(': ');
    cases.push({ name: at > 0 ? r.reason.slice(0, at) : r.reason, classname, failure: r.reason, kind: r.failure === 'infrastructure' ? 'error' : 'failure' });
  }
  if (r.interrupted) cases.push({ name: 'the scenario completed', classname, failure: `interrupted by ${r.signal ?? 'a signal'}` });
  return { name: `harness call ${r.scenario}`, timestamp: startedAt, seconds, cases, properties: { relayOnly: r.relayOnly, exitCode: r.exitCode } };
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : `${v} ms`);

function audioLine(side: string, a: SideAudio): string {
  const measured = a.frequencyHz === null ? 'no sound' : `${a.frequencyHz} Hz (tone share ${a.toneShare})`;
  return `  audio   ${side}: ${a.heard ? 'heard' : 'did NOT hear'} the ${a.expectedHz} Hz tone, measured ${measured}, ${a.soundFrames}/${a.frames} frames with sound`;
}

function videoLine(side: string, v: SideVideo): string {
  const size = v.width === null ? 'no frames' : `${v.width}×${v.height} at ${v.fps ?? 'n/a'} fps`;
  return `  video   ${side}: ${v.seen ? 'saw' : 'did NOT see'} the other side's picture, ${size}, ${v.framesDecoded}/${v.framesReceived} frames read back (${v.distinctCounters} distinct)`;
}

export function formatReport(r: ScenarioReport & Partial<Pick<CallRunReport, 'interrupted' | 'signal' | 'failure'>>): string {
  const verdict = r.interrupted ? `INTERRUPTED (${r.signal ?? 'signal'})` : r.ok ? 'PASS' : r.failure === 'infrastructure' ? 'FAIL (infrastructure)' : 'FAIL';
  const lines = [`scenario ${r.scenario}${r.relayOnly ? ' (relay only)' : ''}: ${verdict}`];
  for (const check of r.checks) lines.push(`  ✔ ${check}`);
  if (r.reason) lines.push(`  ✘ ${r.reason}`);
  const t = r.timings;
  const timings: string[] = [];
  if (t.initiateToIncomingMs !== undefined) timings.push(`initiate→incoming ${ms(t.initiateToIncomingMs)}`);
  if (t.initiateToRingingMs !== undefined) timings.push(`initiate→ringing ${ms(t.initiateToRingingMs)}`);
  if (t.acceptToAcceptedMs !== undefined) timings.push(`accept→accepted ${ms(t.acceptToAcceptedMs)}`);
  if (t.acceptToConnectedMs) timings.push(`accept→connected caller ${ms(t.acceptToConnectedMs.caller)} / callee ${ms(t.acceptToConnectedMs.callee)}`);
  if (t.initiateToConnectedMs !== undefined) timings.push(`initiate→connected ${ms(t.initiateToConnectedMs)}`);
  if (t.firstAudioFrameMs) timings.push(`accept→first audio caller ${ms(t.firstAudioFrameMs.caller)} / callee ${ms(t.firstAudioFrameMs.callee)}`);
  if (t.firstVideoFrameMs) timings.push(`accept→first video frame caller ${ms(t.firstVideoFrameMs.caller)} / callee ${ms(t.firstVideoFrameMs.callee)}`);
  if (t.initiateToFirstFrameMs !== undefined) timings.push(`initiate→first video frame ${ms(t.initiateToFirstFrameMs)}`);
  if (t.ringTimeoutMs !== undefined) timings.push(`initiate→timeout ${ms(t.ringTimeoutMs)}`);
  if (t.dropToConnectionLostMs !== undefined) timings.push(`drop→connection-lost ${ms(t.dropToConnectionLostMs)}`);
  if (t.reconnectToResumeMs !== undefined) timings.push(`reconnect→resume ${ms(t.reconnectToResumeMs)}`);
  if (t.reconnectToConnectedMs !== undefined) timings.push(`reconnect→connected ${ms(t.reconnectToConnectedMs)}`);
  if (t.reconnectToSoundMs !== undefined) timings.push(`reconnect→sound again ${ms(t.reconnectToSoundMs)}`);
  if (t.renegotiationMs !== undefined) timings.push(`offer→answer ${ms(t.renegotiationMs)}`);
  if (t.upgradeToFirstFrameMs !== undefined) timings.push(`camera on→first frame seen ${ms(t.upgradeToFirstFrameMs)}`);
  if (timings.length > 0) lines.push(`  timings ${timings.join(', ')}`);
  if (r.audio) lines.push(audioLine('caller', r.audio.caller), audioLine('callee', r.audio.callee));
  if (r.video) lines.push(videoLine('caller', r.video.caller), videoLine('callee', r.video.callee));
  lines.push(`  ended   caller's last reason ${r.lastReason.caller ?? 'none'}, callee's ${r.lastReason.callee ?? 'none'}`);
  for (const why of r.reconnects) lines.push(`  ~ reconnected before CONNECTED: ${why}`);
  if (r.paths) {
    const path = (p: { local: string; remote: string } | null) => (p ? `${p.local}→${p.remote}` : 'unknown');
    lines.push(`  path    caller ${path(r.paths.caller)}, callee ${path(r.paths.callee)}`);
  }
  return lines.join('\n');
}
