// A camera stand-in and what reads it back: each side sends I420 frames through wrtc's
// RTCVideoSource whose pixels carry a code (which side sent it, a frame counter, a check), drawn
// as 32 big black or white blocks so it survives VP8 at a low bitrate and any down-scaling the
// encoder adapts to. The other side reads the code back from what its RTCVideoSink delivers,
// which proves it sees the OTHER side's moving picture, not a frozen frame, its own, or noise.
import type { nonstandard } from 'wrtc';

export const VIDEO_WIDTH = 320;
export const VIDEO_HEIGHT = 240;
export const VIDEO_FPS = 15;

/** The code's layout: 8 × 4 blocks, read row by row: 4 bits of tag, 16 of counter, 12 of check. */
const COLUMNS = 8;
const ROWS = 4;
const TAG_BITS = 4;
const COUNTER_BITS = 16;
const CHECK_BITS = 12;
/** Video-range luma for a black and a white block; chroma stays neutral grey. */
const BLACK = 16;
const WHITE = 235;
const NEUTRAL_CHROMA = 128;
/** A block whose mean luma falls between these is unreadable (a blurred key frame, a fade). */
const LOW = 90;
const HIGH = 160;

/** Which side drew a frame: distinct per side, like the tones' frequencies. */
export const CALLER_VIDEO_TAG = 1;
export const CALLEE_VIDEO_TAG = 2;
export const THIRD_VIDEO_TAG = 3;

export interface FrameCode {
  tag: number;
  counter: number;
}

export interface I420Frame {
  width: number;
  height: number;
  data: Uint8Array;
}

function check(tag: number, counter: number): number {
  // Any mix of both that changes when one bit of either does: a misread block fails it.
  return ((counter * 37 + tag * 1009 + (counter >>> 7)) ^ 0xa5a) & ((1 << CHECK_BITS) - 1);
}

/** The 32 bits of a code, most significant first within each field. */
export function codeBits({ tag, counter }: FrameCode): number[] {
  const field = (value: number, bits: number) => Array.from({ length: bits }, (_, i) => (value >>> (bits - 1 - i)) & 1);
  const c = counter % (1 << COUNTER_BITS);
  return [...field(tag, TAG_BITS), ...field(c, COUNTER_BITS), ...field(check(tag, c), CHECK_BITS)];
}

function fromBits(bits: number[]): number {
  return bits.reduce((n, b) => n * 2 + b, 0);
}

/** An I420 frame (Y plane, then U and V at half size) showing the code. */
export function paintFrame(code: FrameCode, width = VIDEO_WIDTH, height = VIDEO_HEIGHT): I420Frame {
  const chromaSize = Math.ceil(width / 2) * Math.ceil(height / 2);
  const data = new Uint8Array(width * height + 2 * chromaSize);
  const bits = codeBits(code);
  for (let y = 0; y < height; y++) {
    const row = Math.min(ROWS - 1, Math.floor((y * ROWS) / height));
    for (let x = 0; x < width; x++) {
      const column = Math.min(COLUMNS - 1, Math.floor((x * COLUMNS) / width));
      data[y * width + x] = bits[row * COLUMNS + column] ? WHITE : BLACK;
    }
  }
  data.fill(NEUTRAL_CHROMA, width * height);
  return { width, height, data };
}

/**
 * The code a received frame shows, or null when any block is unreadable or the check fails.
 * Only the middle half of each block is read, every other pixel, at positions relative to the
 * frame's own size, so blurred edges and a scaled-down picture read the same.
 */
export function readFrameCode(frame: I420Frame): FrameCode | null {
  const { width, height, data } = frame;
  if (width < COLUMNS * 4 || height < ROWS * 4 || data.length < width * height) return null;
  const bits: number[] = [];
  for (let row = 0; row < ROWS; row++) {
    const y0 = Math.floor(((row + 0.25) * height) / ROWS);
    const y1 = Math.ceil(((row + 0.75) * height) / ROWS);
    for (let column = 0; column < COLUMNS; column++) {
      const x0 = Math.floor(((column + 0.25) * width) / COLUMNS);
      const x1 = Math.ceil(((column + 0.75) * width) / COLUMNS);
      let sum = 0;
      let n = 0;
      for (let y = y0; y < y1; y += 2) {
        for (let x = x0; x < x1; x += 2) {
          sum += data[y * width + x];
          n++;
        }
      }
      const mean = sum / n;
      if (mean > LOW && mean < HIGH) return null;
      bits.push(mean >= HIGH ? 1 : 0);
    }
  }
  const tag = fromBits(bits.slice(0, TAG_BITS));
  const counter = fromBits(bits.slice(TAG_BITS, TAG_BITS + COUNTER_BITS));
  const sum = fromBits(bits.slice(TAG_BITS + COUNTER_BITS));
  return sum === check(tag, counter) ? { tag, counter } : null;
}

/** Sends one coded frame per tick, the counter counting the frames sent. */
export class VideoPlayer {
  private timer: NodeJS.Timeout | null = null;
  private sent = 0;

  constructor(
    private readonly source: nonstandard.RTCVideoSource,
    readonly tag: number,
    readonly fps = VIDEO_FPS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.pump();
    this.timer = setInterval(() => this.pump(), Math.round(1000 / this.fps));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private pump(): void {
    this.source.onFrame(paintFrame({ tag: this.tag, counter: this.sent++ }));
  }
}

/** Decoded frames carrying the other side's tag before its video counts as seen (about 2/3 s). */
export const MIN_VIDEO_FRAMES = 10;
/** The frame rate is measured over this recent window. */
const FPS_WINDOW_MS = 2000;

export interface VideoReport {
  framesReceived: number;
  /** Frames whose code read back with the expected tag. */
  framesDecoded: number;
  /** Frames with a readable code of another tag (one's own picture, a third party's). */
  framesForeign: number;
  width: number | null;
  height: number | null;
  /** Frames per second over the last 2 s of frames received. */
  fps: number | null;
  /** performance.now() of the first frame received and of the first decoded one. */
  firstFrameAt: number | null;
  firstDecodedAt: number | null;
  /** Distinct counters read: a frozen picture repeats one. */
  distinctCounters: number;
  lastCounter: number | null;
}

export class VideoMeter {
  private framesReceived = 0;
  private framesDecoded = 0;
  private framesForeign = 0;
  private width: number | null = null;
  private height: number | null = null;
  private firstFrameAt: number | null = null;
  private firstDecodedAt: number | null = null;
  private lastCounter: number | null = null;
  private readonly counters = new Set<number>();
  private recent: number[] = [];

  constructor(readonly expectedTag: number) {}

  push(frame: I420Frame, at: number): void {
    this.framesReceived++;
    this.firstFrameAt ??= at;
    this.width = frame.width;
    this.height = frame.height;
    this.recent.push(at);
    while (this.recent.length > 0 && this.recent[0] < at - FPS_WINDOW_MS) this.recent.shift();
    const code = readFrameCode(frame);
    if (!code) return;
    if (code.tag !== this.expectedTag) {
      this.framesForeign++;
      return;
    }
    this.framesDecoded++;
    this.firstDecodedAt ??= at;
    this.lastCounter = code.counter;
    this.counters.add(code.counter);
  }

  /** The other side's picture, moving: enough decoded frames with different counters. */
  seesVideo(): boolean {
    return this.framesDecoded >= MIN_VIDEO_FRAMES && this.counters.size >= MIN_VIDEO_FRAMES;
  }

  report(): VideoReport {
    const span = this.recent.length > 1 ? this.recent[this.recent.length - 1] - this.recent[0] : 0;
    return {
      framesReceived: this.framesReceived,
      framesDecoded: this.framesDecoded,
      framesForeign: this.framesForeign,
      width: this.width,
      height: this.height,
      fps: span > 0 ? Number((((this.recent.length - 1) * 1000) / span).toFixed(1)) : null,
      firstFrameAt: this.firstFrameAt,
      firstDecodedAt: this.firstDecodedAt,
      distinctCounters: this.counters.size,
      lastCounter: this.lastCounter,
    };
  }
}
