// From getStats() to the quality series (quality.ts): a snapshot keeps the cumulative counters a
// sample needs; a sample is the difference of two snapshots a second apart; a summary is the
// distribution of each measure over the series. Pure, so it is tested without a connection.
import { estimateMos } from './mos';
import type { QualitySample, QualitySummary, Stat } from './quality';

/** The cumulative counters of one moment, in the units getStats() gives (seconds, bytes, packets). */
export interface StatsSnapshot {
  /** performance.now() when taken. */
  at: number;
  /** The audio inbound-rtp: loss and concealment are measured on the voice. */
  audioPacketsReceived: number | null;
  audioPacketsLost: number | null;
  concealedSamples: number | null;
  totalSamplesReceived: number | null;
  jitterBufferDelay: number | null;
  jitterBufferEmittedCount: number | null;
  /** Interarrival jitter of the audio, seconds (already smoothed by the receiver). */
  jitter: number | null;
  /** Every inbound-rtp and outbound-rtp stream: audio and video. */
  bytesReceived: number;
  bytesSent: number;
  /** The selected candidate pair's currentRoundTripTime, else RTCP's roundTripTime, seconds. */
  rtt: number | null;
}

type StatsEntry = Record<string, unknown>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads a snapshot from a getStats() report (its entries, as RTCStatsReport.forEach gives them). */
export function snapshotFrom(entries: Iterable<StatsEntry>, at: number): StatsSnapshot {
  const all = [...entries];
  const byId = new Map(all.map((s) => [String(s.id), s]));
  const audioIn = all.find((s) => s.type === 'inbound-rtp' && s.kind === 'audio');
  const sum = (type: string, field: string) => all.filter((s) => s.type === type).reduce((n, s) => n + (num(s[field]) ?? 0), 0);
  // wrtc marks no candidate pair "selected": the transport names it.
  const transport = all.find((s) => s.type === 'transport' && typeof s.selectedCandidatePairId === 'string');
  const pair = transport ? byId.get(String(transport.selectedCandidatePairId)) : all.find((s) => s.type === 'candidate-pair' && s.nominated === true && s.state === 'succeeded');
  const remoteIn = all.find((s) => s.type === 'remote-inbound-rtp' && s.kind === 'audio');
  return {
    at,
    audioPacketsReceived: num(audioIn?.packetsReceived),
    audioPacketsLost: num(audioIn?.packetsLost),
    concealedSamples: num(audioIn?.concealedSamples),
    totalSamplesReceived: num(audioIn?.totalSamplesReceived),
    jitterBufferDelay: num(audioIn?.jitterBufferDelay),
    jitterBufferEmittedCount: num(audioIn?.jitterBufferEmittedCount),
    jitter: num(audioIn?.jitter),
    bytesReceived: sum('inbound-rtp', 'bytesReceived'),
    bytesSent: sum('outbound-rtp', 'bytesSent'),
    rtt: num(pair?.currentRoundTripTime) ?? num(remoteIn?.roundTripTime),
  };
}

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

function delta(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : b - a;
}

/**
 * The second between two snapshots. Loss: packets newly lost over those newly expected (lost +
 * received); a late packet lowers the cumulative lost count, so an interval never goes below 0.
 */
export function sampleBetween(prev: StatsSnapshot, cur: StatsSnapshot, originAt: number): QualitySample {
  const seconds = (cur.at - prev.at) / 1000;
  const received = delta(prev.audioPacketsReceived, cur.audioPacketsReceived);
  const lostRaw = delta(prev.audioPacketsLost, cur.audioPacketsLost);
  const lost = lostRaw === null ? null : Math.max(0, lostRaw);
  const expected = received === null || lost === null ? 0 : received + lost;
  const lossPct = expected > 0 ? round((100 * lost!) / expected, 2) : null;
  const samples = delta(prev.totalSamplesReceived, cur.totalSamplesReceived);
  const concealed = delta(prev.concealedSamples, cur.concealedSamples);
  const concealedPct = samples !== null && concealed !== null && samples > 0 ? round((100 * Math.max(0, concealed)) / samples, 2) : null;
  const emitted = delta(prev.jitterBufferEmittedCount, cur.jitterBufferEmittedCount);
  const buffered = delta(prev.jitterBufferDelay, cur.jitterBufferDelay);
  const jitterBufferMs = emitted !== null && buffered !== null && emitted > 0 ? (1000 * buffered) / emitted : null;
  const rttMs = cur.rtt === null ? null : round(cur.rtt * 1000);
  const jitterMs = cur.jitter === null ? null : round(cur.jitter * 1000);
  const kbps = (bytes: number) => (seconds > 0 ? round((bytes * 8) / 1000 / seconds) : null);
  return {
    t: round((cur.at - originAt) / 1000),
    rttMs,
    jitterMs,
    lossPct,
    bitrateKbps: kbps(Math.max(0, cur.bytesReceived - prev.bytesReceived)),
    outBitrateKbps: kbps(Math.max(0, cur.bytesSent - prev.bytesSent)),
    concealedPct,
    mos: estimateMos({ rttMs, jitterMs, lossPct, jitterBufferMs }),
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** min, p50, p95, max and mean of the values that are not null; null when there are none. */
export function stat(values: readonly (number | null)[]): Stat | null {
  const present = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (present.length === 0) return null;
  const mean = present.reduce((a, b) => a + b, 0) / present.length;
  return { min: present[0], p50: percentile(present, 50), p95: percentile(present, 95), max: present[present.length - 1], mean: round(mean, 2) };
}

export function summarize(series: readonly QualitySample[]): QualitySummary {
  return {
    samples: series.length,
    rttMs: stat(series.map((s) => s.rttMs)),
    jitterMs: stat(series.map((s) => s.jitterMs)),
    lossPct: stat(series.map((s) => s.lossPct)),
    bitrateKbps: stat(series.map((s) => s.bitrateKbps)),
    mos: stat(series.map((s) => s.mos)),
  };
}
