// A microphone stand-in: a sine tone fed to wrtc's RTCAudioSource in 10 ms frames of 48 kHz
// 16-bit mono, the shape libwebrtc expects. Frames are produced by elapsed time, not by timer
// ticks, so a late timer on a loaded machine sends the frames it owes instead of falling behind.
// Frames and the clock are shared by every player in the process (harness call --pairs).
import type { nonstandard } from 'wrtc';

export const SAMPLE_RATE = 48_000;
export const FRAME_MS = 10;
export const FRAME_SAMPLES = (SAMPLE_RATE * FRAME_MS) / 1000;
/** About a quarter of full scale: loud enough to measure, far from clipping. */
export const TONE_AMPLITUDE = 8_000;

/** Frame number `index` of a continuous sine of the given frequency. */
export function toneFrame(frequencyHz: number, index: number, amplitude = TONE_AMPLITUDE): Int16Array {
  const samples = new Int16Array(FRAME_SAMPLES);
  const first = index * FRAME_SAMPLES;
  for (let i = 0; i < FRAME_SAMPLES; i++) {
    samples[i] = Math.round(amplitude * Math.sin((2 * Math.PI * frequencyHz * (first + i)) / SAMPLE_RATE));
  }
  return samples;
}

/** Never send more than this many owed frames at once (after a long stall, skip ahead). */
const MAX_CATCH_UP_FRAMES = 20;

/** Longest cycle of frames kept for one tone (a tone of whole hertz repeats within 100 frames, 1 s). */
const MAX_CYCLE_FRAMES = 100;

/**
 * The frames of one tone, computed once and shared by every player of it: a sine of f Hz repeats
 * every k frames when f × k × 10 ms is a whole number of periods (440 Hz: 5 frames), so a process
 * with forty callers (`harness call --pairs 20`) keeps a handful of small frames instead of
 * allocating 100 a second for each of them. wrtc copies a frame's samples when it is pushed, so
 * one frame can be pushed by any number of sources. Null when the tone does not repeat within
 * MAX_CYCLE_FRAMES (its frames are then computed as they are sent).
 */
const cycles = new Map<string, Int16Array[] | null>();

export function toneCycle(frequencyHz: number, amplitude = TONE_AMPLITUDE): Int16Array[] | null {
  const key = `${frequencyHz}/${amplitude}`;
  if (cycles.has(key)) return cycles.get(key)!;
  const periodsPerFrame = (frequencyHz * FRAME_SAMPLES) / SAMPLE_RATE;
  let length = 0;
  for (let k = 1; k <= MAX_CYCLE_FRAMES && length === 0; k++) {
    if (Math.abs(periodsPerFrame * k - Math.round(periodsPerFrame * k)) < 1e-9) length = k;
  }
  const cycle = length === 0 ? null : Array.from({ length }, (_x, i) => toneFrame(frequencyHz, i, amplitude));
  cycles.set(key, cycle);
  return cycle;
}

/**
 * One clock for every player in the process: a single 10 ms timer pumps them all, rather than a
 * timer each (forty timers firing 100 times a second each on a loaded machine drift apart and
 * cost forty wake-ups where one does).
 */
const playing = new Set<TonePlayer>();
let clock: NodeJS.Timeout | null = null;

function tick(): void {
  const now = performance.now();
  for (const player of playing) player.pump(now);
}

export class TonePlayer {
  private sent = 0;
  private startedAt = 0;
  private readonly cycle: Int16Array[] | null;

  constructor(
    private readonly source: nonstandard.RTCAudioSource,
    readonly frequencyHz: number,
  ) {
    this.cycle = toneCycle(frequencyHz);
  }

  start(): void {
    if (playing.has(this)) return;
    this.startedAt = performance.now();
    this.sent = 0;
    playing.add(this);
    clock ??= setInterval(tick, FRAME_MS);
  }

  stop(): void {
    playing.delete(this);
    if (playing.size === 0 && clock) {
      clearInterval(clock);
      clock = null;
    }
  }

  /** Sends the frames owed by `now` (performance.now()). */
  pump(now: number): void {
    const due = Math.floor((now - this.startedAt) / FRAME_MS);
    if (due - this.sent > MAX_CATCH_UP_FRAMES) this.sent = due - MAX_CATCH_UP_FRAMES;
    for (; this.sent < due; this.sent++) {
      this.source.onData({
        samples: this.cycle ? this.cycle[this.sent % this.cycle.length] : toneFrame(this.frequencyHz, this.sent),
        sampleRate: SAMPLE_RATE,
        bitsPerSample: 16,
        channelCount: 1,
        numberOfFrames: FRAME_SAMPLES,
      });
    }
  }
}
