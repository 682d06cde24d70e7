import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { analyzeVoice, VoiceError, waveformOf, WAVEFORM_LEVELS } from '../../../src/features/attachments/voice';

/** Mono 16-bit little-endian PCM of the given samples. */
const pcm = (samples: number[]) => {
  const out = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => out.writeInt16LE(s, i * 2));
  return out;
};

async function* once(bytes: Buffer): AsyncIterable<Buffer> {
  yield bytes;
}

describe('voice messages: the waveform and ffmpeg (voice.ts)', () => {
  it('answers 64 levels 0..255: the peak of each 64th, the loudest 255, negative samples counted by size', () => {
    const samples = new Array<number>(6400).fill(0);
    samples[50] = -16000; // first 64th: loudest
    samples[150] = 8000; // second: half
    samples[6399] = 4000; // last: a quarter
    const levels = waveformOf(pcm(samples));
    expect(levels).to.have.length(WAVEFORM_LEVELS);
    expect(levels[0]).to.equal(255);
    expect(levels[1]).to.equal(128);
    expect(levels[63]).to.equal(64);
    expect(levels.slice(2, 63).every((l) => l === 0)).to.equal(true);
  });

  it('answers silence as 64 zeros and a recording shorter than 64 samples without failing', () => {
    expect(waveformOf(pcm(new Array<number>(1000).fill(0)))).to.deep.equal(new Array<number>(64).fill(0));
    expect(waveformOf(pcm([100, -200, 300]))).to.have.length(64);
  });

  it('refuses as unavailable when ffmpeg is not there, and as unreadable bytes that are no audio', async () => {
    const missing = await analyzeVoice(once(Buffer.from('x')), '/nonexistent/ffmpeg').catch((err: unknown) => err);
    expect(missing).to.be.instanceOf(VoiceError);
    expect((missing as VoiceError).reason).to.equal('unavailable');
    const garbage = await analyzeVoice(once(Buffer.from('not audio at all, just text'.repeat(100)))).catch((err: unknown) => err);
    expect(garbage).to.be.instanceOf(VoiceError);
    expect((garbage as VoiceError).reason).to.equal('unreadable');
  });

  it('reads the length of a WAV made by ffmpeg, and refuses one of 5 minutes and 2 seconds as too long', async function () {
    this.timeout(60_000);
    const wav = (seconds: number) => spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=300:duration=${seconds}:sample_rate=8000`, '-f', 'wav', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 }).stdout;
    const facts = await analyzeVoice(once(wav(3)));
    expect(facts.durationMs).to.equal(3000);
    expect(facts.waveform.every((l) => l > 200)).to.equal(true);
    const long = await analyzeVoice(once(wav(302))).catch((err: unknown) => err);
    expect((long as VoiceError).reason).to.equal('too-long');
  });
});
