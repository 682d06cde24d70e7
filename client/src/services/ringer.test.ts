// The Web Audio ringer against a fake AudioContext (jsdom has none): the tones it schedules, the
// autoplay rules holding it back until the first gesture, and silence after stop().
import { expect } from 'chai';
import { createBrowserRinger } from './ringer';

class FakeParam {
  value = 0;
  setValueAtTime() {}
  linearRampToValueAtTime() {}
}

class FakeNode {
  connected = false;
  connect() {
    this.connected = true;
  }
  disconnect() {
    this.connected = false;
  }
}

class FakeContext extends EventTarget {
  static allowed = true;
  static last: FakeContext | null = null;
  state: AudioContextState = 'suspended';
  currentTime = 0;
  destination = new FakeNode();
  readonly frequencies: number[] = [];
  readonly outputs: FakeNode[] = [];

  constructor() {
    super();
    FakeContext.last = this;
    if (FakeContext.allowed) this.state = 'running';
  }
  resume(): Promise<void> {
    if (FakeContext.allowed && this.state !== 'running') {
      this.state = 'running';
      this.dispatchEvent(new Event('statechange'));
    }
    return FakeContext.allowed ? Promise.resolve() : new Promise(() => undefined);
  }
  createGain() {
    const node = Object.assign(new FakeNode(), { gain: new FakeParam() });
    this.outputs.push(node);
    return node;
  }
  createOscillator() {
    const frequencies = this.frequencies;
    const frequency = new FakeParam();
    return Object.assign(new FakeNode(), {
      frequency,
      start: () => frequencies.push(frequency.value),
      stop: () => undefined,
    });
  }
}

describe('the Web Audio ringer', () => {
  const global = globalThis as { AudioContext?: unknown };
  let saved: unknown;
  beforeEach(() => {
    saved = global.AudioContext;
    global.AudioContext = FakeContext;
    FakeContext.allowed = true;
  });
  afterEach(() => {
    global.AudioContext = saved;
  });

  it('plays the ring-back tone (440 and 480 Hz) at once when the browser allows sound, and falls silent on stop', async () => {
    const ringer = createBrowserRinger();
    expect(await ringer.start('ringback')).to.equal('playing');
    const ctx = FakeContext.last!;
    expect(ctx.frequencies).to.deep.equal([440, 480]);
    const output = ctx.outputs[0]; // the tone's output, made before its notes
    expect(output.connected).to.equal(true);
    ringer.stop();
    expect(output.connected).to.equal(false);
  });

  it('rings the callee with its own two-note cadence', async () => {
    const ringer = createBrowserRinger();
    expect(await ringer.start('ringing')).to.equal('playing');
    expect(FakeContext.last!.frequencies).to.deep.equal([880, 660, 880, 660]);
    ringer.stop();
  });

  it('answers blocked under the autoplay rules, then rings from the first tap', async () => {
    FakeContext.allowed = false;
    const ringer = createBrowserRinger();
    expect(await ringer.start('ringing')).to.equal('blocked');
    const ctx = FakeContext.last!;
    expect(ctx.frequencies).to.deep.equal([]);
    const unblocked = ringer.whenUnblocked();
    FakeContext.allowed = true;
    window.dispatchEvent(new window.Event('pointerdown'));
    await unblocked;
    expect(ctx.frequencies).to.deep.equal([880, 660, 880, 660]);
    ringer.stop();
  });

  it('is unavailable without Web Audio', async () => {
    global.AudioContext = undefined;
    expect(await createBrowserRinger().start('ringing')).to.equal('unavailable');
  });
});
