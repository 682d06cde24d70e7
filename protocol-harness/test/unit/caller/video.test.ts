import { expect } from 'chai';
import { codeBits, MIN_VIDEO_FRAMES, paintFrame, readFrameCode, VideoMeter, type I420Frame } from '../../../src/caller/video';

/** A nearest-neighbour scaled copy of the Y plane: what an encoder adapting its resolution delivers. */
function scaled(frame: I420Frame, width: number, height: number): I420Frame {
  const data = new Uint8Array(width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2)).fill(128);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data[y * width + x] = frame.data[Math.floor((y * frame.height) / height) * frame.width + Math.floor((x * frame.width) / width)];
  }
  return { width, height, data };
}

/** Every pixel moved towards grey by `amount` and given some deterministic noise: a lossy codec. */
function degraded(frame: I420Frame, amount: number, noise: number): I420Frame {
  const data = Uint8Array.from(frame.data, (v, i) => {
    const pulled = v + (v > 128 ? -amount : amount);
    return Math.max(0, Math.min(255, pulled + (((i * 7919) % (2 * noise + 1)) - noise)));
  });
  return { ...frame, data };
}

describe('the coded video frames', () => {
  it('make a full I420 frame: a Y plane and two quarter-size chroma planes', () => {
    const frame = paintFrame({ tag: 1, counter: 0 });
    expect(frame.data).to.have.length(320 * 240 * 1.5);
    expect(codeBits({ tag: 1, counter: 0 })).to.have.length(32);
  });

  it('read back the tag and counter they were painted with', () => {
    for (const code of [{ tag: 1, counter: 0 }, { tag: 2, counter: 1 }, { tag: 2, counter: 12345 }, { tag: 15, counter: 65535 }]) {
      expect(readFrameCode(paintFrame(code))).to.deep.equal(code);
    }
  });

  it('read the same after scaling down and lossy blurring', () => {
    const frame = paintFrame({ tag: 2, counter: 4242 });
    expect(readFrameCode(degraded(scaled(frame, 160, 120), 50, 20))).to.deep.equal({ tag: 2, counter: 4242 });
    expect(readFrameCode(scaled(frame, 640, 480))).to.deep.equal({ tag: 2, counter: 4242 });
  });

  it('refuse a grey or a corrupted frame instead of guessing', () => {
    const grey: I420Frame = { width: 320, height: 240, data: new Uint8Array(320 * 240 * 1.5).fill(128) };
    expect(readFrameCode(grey)).to.equal(null);
    // Flip one block of the counter: the check no longer holds.
    const frame = paintFrame({ tag: 1, counter: 7 });
    const bit = 19; // the counter's last bit: row 2, column 3
    const [bw, bh] = [40, 60];
    const [x0, y0] = [(bit % 8) * bw, Math.floor(bit / 8) * bh];
    for (let y = y0; y < y0 + bh; y++) for (let x = x0; x < x0 + bw; x++) frame.data[y * 320 + x] = frame.data[y * 320 + x] > 128 ? 16 : 235;
    expect(readFrameCode(frame)).to.equal(null);
  });
});

describe('the video meter', () => {
  it('sees the other side once enough frames with distinct counters arrive, and measures the rate', () => {
    const meter = new VideoMeter(2);
    for (let i = 0; i < MIN_VIDEO_FRAMES - 1; i++) meter.push(paintFrame({ tag: 2, counter: i }), i * 100);
    expect(meter.seesVideo()).to.equal(false);
    meter.push(paintFrame({ tag: 2, counter: MIN_VIDEO_FRAMES }), (MIN_VIDEO_FRAMES - 1) * 100);
    expect(meter.seesVideo()).to.equal(true);
    const report = meter.report();
    expect(report).to.include({ framesReceived: MIN_VIDEO_FRAMES, framesDecoded: MIN_VIDEO_FRAMES, width: 320, height: 240, fps: 10, firstFrameAt: 0, firstDecodedAt: 0 });
  });

  it('does not count a frozen picture or its own picture as the other side’s video', () => {
    const frozen = new VideoMeter(2);
    const own = new VideoMeter(2);
    for (let i = 0; i < 30; i++) {
      frozen.push(paintFrame({ tag: 2, counter: 5 }), i * 66);
      own.push(paintFrame({ tag: 1, counter: i }), i * 66);
    }
    expect(frozen.seesVideo()).to.equal(false);
    expect(own.seesVideo()).to.equal(false);
    expect(own.report()).to.include({ framesReceived: 30, framesForeign: 30, framesDecoded: 0 });
  });
});
