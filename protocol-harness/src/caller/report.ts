// The human-readable summary of a scenario report (--json prints the report itself).
import type { ScenarioReport, SideAudio, SideVideo } from './scenarios';

const ms = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : `${v} ms`);

function audioLine(side: string, a: SideAudio): string {
  const measured = a.frequencyHz === null ? 'no sound' : `${a.frequencyHz} Hz (tone share ${a.toneShare})`;
  return `  audio   ${side}: ${a.heard ? 'heard' : 'did NOT hear'} the ${a.expectedHz} Hz tone, measured ${measured}, ${a.soundFrames}/${a.frames} frames with sound`;
}

function videoLine(side: string, v: SideVideo): string {
  const size = v.width === null ? 'no frames' : `${v.width}×${v.height} at ${v.fps ?? 'n/a'} fps`;
  return `  video   ${side}: ${v.seen ? 'saw' : 'did NOT see'} the other side's picture, ${size}, ${v.framesDecoded}/${v.framesReceived} frames read back (${v.distinctCounters} distinct)`;
}

export function formatReport(r: ScenarioReport): string {
  const lines = [`scenario ${r.scenario}${r.relayOnly ? ' (relay only)' : ''}: ${r.ok ? 'PASS' : 'FAIL'}`];
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
