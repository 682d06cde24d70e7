import { expect } from 'chai';
import { AudioMeter, framesToneShare, MIN_SOUND_FRAMES, rms, toneShare, zeroCrossingFrequency } from '../../../src/caller/audio-meter';
import { FRAME_SAMPLES, SAMPLE_RATE, toneFrame } from '../../../src/caller/tone';

function tone(frequencyHz: number, frames: number): Int16Array[] {
  return Array.from({ length: frames }, (_, i) => toneFrame(frequencyHz, i));
}

/** Deterministic noise (a linear congruential generator), so the test cannot flake. */
function noise(frames: number, amplitude: number): Int16Array[] {
  let seed = 12345;
  return Array.from({ length: frames }, () => {
    const samples = new Int16Array(FRAME_SAMPLES);
    for (let i = 0; i < samples.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      samples[i] = Math.round(((seed / 0x7fffffff) * 2 - 1) * amplitude);
    }
    return samples;
  });
}

function concat(frames: Int16Array[]): Int16Array {
  const out = new Int16Array(frames.length * FRAME_SAMPLES);
  frames.forEach((f, i) => out.set(f, i * FRAME_SAMPLES));
  return out;
}

describe('the audio meter', () => {
  it('estimates a tone’s frequency from its zero crossings', () => {
    for (const hz of [440, 660, 1000]) {
      expect(zeroCrossingFrequency(concat(tone(hz, 50)), SAMPLE_RATE)).to.be.closeTo(hz, hz * 0.01);
    }
  });

  it('finds nearly all of a tone’s energy at its own frequency and little at another', () => {
    const samples = concat(tone(440, 20));
    expect(toneShare(samples, SAMPLE_RATE, 440)).to.be.above(0.95);
    expect(toneShare(samples, SAMPLE_RATE, 660)).to.be.below(0.05);
  });

  it('frame by frame, still tells the three callers’ tones (440, 550, 660 Hz) apart', () => {
    for (const hz of [440, 550, 660]) {
      for (const other of [440, 550, 660]) {
        const share = framesToneShare(tone(hz, 20), SAMPLE_RATE, other);
        if (other === hz) expect(share, `${hz} at ${other}`).to.be.above(0.95);
        else expect(share, `${hz} at ${other}`).to.be.below(0.05);
      }
    }
  });

  it('measures the RMS of a sine as its amplitude over √2', () => {
    expect(rms(toneFrame(440, 0, 8000))).to.be.closeTo(8000 / Math.SQRT2, 60);
    expect(rms(new Int16Array(480))).to.equal(0);
  });

  it('hears the expected tone once half a second of it has arrived', () => {
    const meter = new AudioMeter(660);
    tone(660, MIN_SOUND_FRAMES - 1).forEach((samples, i) => meter.push({ samples, sampleRate: SAMPLE_RATE }, i * 10));
    expect(meter.hearsTone()).to.equal(false);
    meter.push({ samples: toneFrame(660, MIN_SOUND_FRAMES), sampleRate: SAMPLE_RATE }, 500);
    expect(meter.hearsTone()).to.equal(true);
    const report = meter.report();
    expect(report.frequencyHz).to.be.closeTo(660, 5);
    expect(report.soundFrames).to.equal(MIN_SOUND_FRAMES);
    expect(report.firstSoundAt).to.equal(0);
  });

  it('still hears the tone when a frame went missing mid-window (its phase jumps where the frames join)', () => {
    // Frame 50 (10 ms, 6.6 periods of 660 Hz) is lost: the tone resumes 0.6 of a period further on.
    const frames = [...tone(660, 101).slice(0, 50), ...tone(660, 101).slice(51)];
    expect(toneShare(concat(frames), SAMPLE_RATE, 660), 'one Goertzel over the joined samples').to.be.below(0.5);
    const meter = new AudioMeter(660);
    frames.forEach((samples, i) => meter.push({ samples, sampleRate: SAMPLE_RATE }, i * 10));
    expect(meter.report().toneShare).to.be.above(0.95);
    expect(meter.report().frequencyHz).to.be.closeTo(660, 660 * 0.05);
    expect(meter.hearsTone()).to.equal(true);
  });

  it('does not count its own, different tone as the other side’s', () => {
    const meter = new AudioMeter(660);
    tone(440, 100).forEach((samples, i) => meter.push({ samples, sampleRate: SAMPLE_RATE }, i));
    expect(meter.hearsTone()).to.equal(false);
    expect(meter.report().frequencyHz).to.be.closeTo(440, 5);
  });

  it('counts silence as frames but not as sound', () => {
    const meter = new AudioMeter(440);
    for (let i = 0; i < 100; i++) meter.push({ samples: new Int16Array(160), sampleRate: 16_000 }, i);
    expect(meter.report()).to.include({ frames: 100, soundFrames: 0, firstFrameAt: 0, firstSoundAt: null, frequencyHz: null });
    expect(meter.hearsTone()).to.equal(false);
  });

  it('does not mistake loud noise for the tone', () => {
    const meter = new AudioMeter(440);
    noise(100, 8000).forEach((samples, i) => meter.push({ samples, sampleRate: SAMPLE_RATE }, i));
    expect(meter.report().soundFrames).to.equal(100);
    expect(meter.hearsTone()).to.equal(false);
  });

  it('reads the first channel of interleaved stereo', () => {
    const meter = new AudioMeter(440);
    for (let f = 0; f < 60; f++) {
      const mono = toneFrame(440, f);
      const stereo = new Int16Array(mono.length * 2);
      mono.forEach((v, i) => {
        stereo[2 * i] = v;
        stereo[2 * i + 1] = 0;
      });
      meter.push({ samples: stereo, sampleRate: SAMPLE_RATE, channelCount: 2 }, f);
    }
    expect(meter.hearsTone()).to.equal(true);
  });

  it('keeps its own copy of each frame: a sink that reuses one buffer for every frame is still heard', () => {
    const meter = new AudioMeter(440);
    const buffer = new Int16Array(FRAME_SAMPLES);
    for (let f = 0; f < 100; f++) {
      buffer.set(toneFrame(440, f));
      meter.push({ samples: buffer, sampleRate: SAMPLE_RATE }, f);
    }
    // The buffer now holds the last frame only, overwritten 100 times: a meter that kept
    // references would measure one frame repeated, whose phase jumps at every join.
    buffer.fill(0);
    expect(meter.hearsTone()).to.equal(true);
  });
});
