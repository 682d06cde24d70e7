// Measures what arrives at a caller's RTCAudioSink: how many frames, how many carry sound,
// when the first sound came, and the frequency of that sound. The frequency is estimated from
// zero crossings of the most recent second of sound and confirmed with a Goertzel filter at
// the expected frequency, frame by frame, so a caller proves it hears the OTHER side's tone,
// not silence, noise or its own tone.

export interface SinkFrame {
  samples: Int16Array;
  sampleRate: number;
  channelCount?: number;
}

/** RMS on the 16-bit scale below which a frame counts as silence (comfort noise, dither). */
export const SILENCE_RMS = 200;
/** At least this much sound (0.5 s of 10 ms frames) before the tone counts as heard. */
export const MIN_SOUND_FRAMES = 50;
/** Measured frequency within this fraction of the expected one. */
export const FREQUENCY_TOLERANCE = 0.05;
/** Share of the signal's energy at the expected frequency for it to count as that tone. */
export const MIN_TONE_SHARE = 0.5;

/**
 * The first channel as 16-bit samples, copied (the sink's buffer is not ours to keep): a quarter
 * of the memory of floats, for the second of sound each side keeps (forty sides in one process
 * with `harness call --pairs 20`).
 */
export function firstChannelSamples(frame: SinkFrame): Int16Array {
  const channels = frame.channelCount ?? 1;
  if (channels === 1) return frame.samples.slice();
  const out = new Int16Array(Math.floor(frame.samples.length / channels));
  for (let i = 0; i < out.length; i++) out[i] = frame.samples[i * channels];
  return out;
}

export function rms(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

/** Frequency from the number of sign changes: a sine crosses zero twice per period. */
export function zeroCrossingFrequency(samples: ArrayLike<number>, sampleRate: number): number {
  let crossings = 0;
  let previous = 0;
  for (let i = 0; i < samples.length; i++) {
    const sign = samples[i] > 0 ? 1 : samples[i] < 0 ? -1 : 0;
    if (sign !== 0) {
      if (previous !== 0 && sign !== previous) crossings++;
      previous = sign;
    }
  }
  return samples.length === 0 ? 0 : (crossings / 2) * (sampleRate / samples.length);
}

/**
 * The fraction of the signal's energy at one frequency (Goertzel). About 1 for a pure tone at
 * that frequency, near 0 for a tone elsewhere or for noise.
 */
export function toneShare(samples: ArrayLike<number>, sampleRate: number, frequencyHz: number): number {
  const n = samples.length;
  if (n === 0) return 0;
  const coefficient = 2 * Math.cos((2 * Math.PI * frequencyHz) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  let energy = 0;
  for (let i = 0; i < n; i++) {
    const s0 = samples[i] + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
    energy += samples[i] * samples[i];
  }
  if (energy === 0) return 0;
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
  return Math.min(1, (2 * power) / (n * energy));
}

/**
 * toneShare over a run of frames, each measured on its own and their energies summed. The
 * frames of that second need not join up: a frame lost or concealed on a loaded machine (silent
 * ones are left out of the window) shifts the tone's phase in the concatenated samples, and one
 * Goertzel over a window with such a jump can lose most of the energy (a half-period jump in the
 * middle cancels it), though every frame holds the tone.
 */
export function framesToneShare(frames: readonly ArrayLike<number>[], sampleRate: number, frequencyHz: number): number {
  let atFrequency = 0;
  let energy = 0;
  for (const frame of frames) {
    const e = rms(frame) ** 2 * frame.length;
    atFrequency += toneShare(frame, sampleRate, frequencyHz) * e;
    energy += e;
  }
  return energy === 0 ? 0 : atFrequency / energy;
}

export interface AudioReport {
  frames: number;
  soundFrames: number;
  /** Milliseconds (performance.now()) of the first frame, and of the first frame with sound. */
  firstFrameAt: number | null;
  firstSoundAt: number | null;
  frequencyHz: number | null;
  toneShare: number | null;
}

export class AudioMeter {
  private frames = 0;
  private soundFrames = 0;
  private firstFrameAt: number | null = null;
  private firstSoundAt: number | null = null;
  /** The latest second of sound at its own sample rate. */
  private recent: Int16Array[] = [];
  private recentSamples = 0;
  private sampleRate = 48_000;

  constructor(readonly expectedHz: number) {}

  push(frame: SinkFrame, at: number): void {
    this.frames++;
    this.firstFrameAt ??= at;
    const mono = firstChannelSamples(frame);
    if (rms(mono) < SILENCE_RMS) return;
    this.soundFrames++;
    this.firstSoundAt ??= at;
    if (frame.sampleRate !== this.sampleRate) {
      this.recent = [];
      this.recentSamples = 0;
      this.sampleRate = frame.sampleRate;
    }
    this.recent.push(mono);
    this.recentSamples += mono.length;
    while (this.recentSamples - this.recent[0].length >= this.sampleRate) this.recentSamples -= this.recent.shift()!.length;
  }

  report(): AudioReport {
    const window = this.window();
    const measured = window.length > 0;
    return {
      frames: this.frames,
      soundFrames: this.soundFrames,
      firstFrameAt: this.firstFrameAt,
      firstSoundAt: this.firstSoundAt,
      frequencyHz: measured ? Math.round(zeroCrossingFrequency(window, this.sampleRate)) : null,
      toneShare: measured ? Number(framesToneShare(this.recent, this.sampleRate, this.expectedHz).toFixed(3)) : null,
    };
  }

  /** Enough sound, at the expected frequency. */
  hearsTone(): boolean {
    if (this.soundFrames < MIN_SOUND_FRAMES) return false;
    const { frequencyHz, toneShare: share } = this.report();
    return (
      frequencyHz !== null &&
      Math.abs(frequencyHz - this.expectedHz) <= this.expectedHz * FREQUENCY_TOLERANCE &&
      share !== null &&
      share >= MIN_TONE_SHARE
    );
  }

  private window(): Float64Array {
    const out = new Float64Array(this.recentSamples);
    let offset = 0;
    for (const chunk of this.recent) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}
