// A microphone stand-in: a sine tone fed to wrtc's RTCAudioSource in 10 ms frames of 48 kHz
// 16-bit mono, the shape libwebrtc expects. Frames are produced by elapsed time, not by timer
// ticks, so a late timer on a loaded machine sends the frames it owes instead of falling behind.
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

export class TonePlayer {
  private timer: NodeJS.Timeout | null = null;
  private sent = 0;
  private startedAt = 0;

  constructor(
    private readonly source: nonstandard.RTCAudioSource,
    readonly frequencyHz: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.startedAt = performance.now();
    this.sent = 0;
    this.timer = setInterval(() => this.pump(), FRAME_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private pump(): void {
    const due = Math.floor((performance.now() - this.startedAt) / FRAME_MS);
    if (due - this.sent > MAX_CATCH_UP_FRAMES) this.sent = due - MAX_CATCH_UP_FRAMES;
    for (; this.sent < due; this.sent++) {
      this.source.onData({
        samples: toneFrame(this.frequencyHz, this.sent),
        sampleRate: SAMPLE_RATE,
        bitsPerSample: 16,
        channelCount: 1,
        numberOfFrames: FRAME_SAMPLES,
      });
    }
  }
}
