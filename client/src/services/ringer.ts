// Ring sounds made with Web Audio, no sound file: the callee's ringing and the caller's ring-back
// tone. Browsers refuse to start audio before the user has touched the page (autoplay rules);
// then start() answers 'blocked' and the tone begins on the user's first tap or key press.
// The call saga reaches this through its context, so tests pass a fake.

export type RingTone = 'ringing' | 'ringback';
/** 'unavailable': this browser has no Web Audio; the call goes on without a sound. */
export type RingStart = 'playing' | 'blocked' | 'unavailable';

export interface Ringer {
  /** Starts the tone (replacing any other); never rejects. */
  start(tone: RingTone): Promise<RingStart>;
  stop(): void;
  /** Resolves once a blocked tone has started after a user gesture. */
  whenUnblocked(): Promise<void>;
}

/** One step of a tone's cadence: these frequencies (none: silence) for this long. */
interface Step {
  hz: number[];
  ms: number;
}

/** The cadences, repeated until stopped: ring-back is the 440+480 Hz tone of a phone line, 1 s on, 2 s off. */
const CADENCES: Record<RingTone, Step[]> = {
  ringback: [
    { hz: [440, 480], ms: 1000 },
    { hz: [], ms: 2000 },
  ],
  ringing: [
    { hz: [880], ms: 180 },
    { hz: [], ms: 60 },
    { hz: [660], ms: 180 },
    { hz: [], ms: 60 },
    { hz: [880], ms: 180 },
    { hz: [], ms: 60 },
    { hz: [660], ms: 180 },
    { hz: [], ms: 1600 },
  ],
};

const VOLUME = 0.12;
/** Short fades at each step's edges so the tone does not click. */
const RAMP_S = 0.015;
/** How long resume() may take before the tone counts as blocked by the autoplay rules. */
const RESUME_WAIT_MS = 150;
const GESTURES = ['pointerdown', 'keydown', 'touchstart'] as const;

const cadenceMs = (steps: Step[]) => steps.reduce((sum, step) => sum + step.ms, 0);

export function createBrowserRinger(): Ringer {
  let context: AudioContext | null = null;
  let wanted: RingTone | null = null;
  let output: GainNode | null = null;
  let repeat: ReturnType<typeof setInterval> | null = null;
  let unblockedWaiters: Array<() => void> = [];

  function scheduleCadence(ctx: AudioContext, into: GainNode, steps: Step[]): void {
    let at = ctx.currentTime + 0.02;
    for (const step of steps) {
      const seconds = step.ms / 1000;
      if (step.hz.length > 0) {
        const envelope = ctx.createGain();
        envelope.gain.setValueAtTime(0, at);
        envelope.gain.linearRampToValueAtTime(VOLUME / step.hz.length, at + RAMP_S);
        envelope.gain.setValueAtTime(VOLUME / step.hz.length, at + seconds - RAMP_S);
        envelope.gain.linearRampToValueAtTime(0, at + seconds);
        envelope.connect(into);
        for (const hz of step.hz) {
          const oscillator = ctx.createOscillator();
          oscillator.frequency.value = hz;
          oscillator.connect(envelope);
          oscillator.start(at);
          oscillator.stop(at + seconds);
        }
      }
      at += seconds;
    }
  }

  function play(ctx: AudioContext, tone: RingTone): void {
    silence();
    const steps = CADENCES[tone];
    output = ctx.createGain();
    output.connect(ctx.destination);
    const into = output;
    scheduleCadence(ctx, into, steps);
    repeat = setInterval(() => scheduleCadence(ctx, into, steps), cadenceMs(steps));
  }

  function silence(): void {
    if (repeat) clearInterval(repeat);
    repeat = null;
    output?.disconnect();
    output = null;
  }

  function onGesture(): void {
    void context?.resume();
  }

  function listenForGesture(listen: boolean): void {
    for (const type of GESTURES) {
      if (listen) window.addEventListener(type, onGesture, { capture: true });
      else window.removeEventListener(type, onGesture, { capture: true });
    }
  }

  function audioContext(): AudioContext | null {
    if (context) return context;
    if (typeof AudioContext === 'undefined') return null;
    const ctx = new AudioContext();
    ctx.addEventListener('statechange', () => {
      if (ctx.state !== 'running') return;
      listenForGesture(false);
      if (wanted && !output) play(ctx, wanted);
      unblockedWaiters.forEach((resolve) => resolve());
      unblockedWaiters = [];
    });
    context = ctx;
    return ctx;
  }

  return {
    async start(tone) {
      const ctx = audioContext();
      if (!ctx) return 'unavailable';
      wanted = tone;
      silence();
      if (ctx.state !== 'running') {
        await Promise.race([ctx.resume().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, RESUME_WAIT_MS))]);
      }
      if (wanted !== tone) return 'playing'; // stopped or replaced meanwhile: nothing more to do
      if (ctx.state === 'running') {
        if (!output) play(ctx, tone);
        return 'playing';
      }
      listenForGesture(true);
      return 'blocked';
    },
    stop() {
      wanted = null;
      silence();
      listenForGesture(false);
      unblockedWaiters = []; // whoever waited has moved on (the saga cancels its wait)
    },
    whenUnblocked() {
      if (context?.state === 'running') return Promise.resolve();
      return new Promise((resolve) => unblockedWaiters.push(resolve));
    },
  };
}
