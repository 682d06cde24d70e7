// Live progress on stderr (stdout keeps the report, so `--json` output stays one object): a
// cli-progress bar on a terminal, a plain line every few seconds otherwise.
import cliProgress from 'cli-progress';
import type { ProgressSample } from './driver';

export interface Progress {
  setup(step: string, done: number, total: number): void;
  update(sample: ProgressSample): void;
  stop(): void;
}

const PLAIN_EVERY_MS = 5000;

function line(s: ProgressSample): string {
  return `${s.phase} ${s.elapsedSeconds.toFixed(1)} s: sent ${s.sent}/${s.offered} offered, acked ${s.acknowledged}, delivered ${s.delivered}/${s.expectedDeliveries}, p99 ${s.p99Ms.toFixed(1)} ms`;
}

export function createProgress(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled) return { setup() {}, update() {}, stop() {} };
  if (!stream.isTTY) {
    let lastPlain = 0;
    let lastStep = '';
    return {
      setup(step, done, total) {
        const now = Date.now();
        if (step !== lastStep || done === total || now - lastPlain >= PLAIN_EVERY_MS) {
          stream.write(`${step}: ${done}/${total}\n`);
          lastPlain = now;
          lastStep = step;
        }
      },
      update(sample) {
        const now = Date.now();
        if (now - lastPlain >= PLAIN_EVERY_MS) {
          stream.write(line(sample) + '\n');
          lastPlain = now;
        }
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream, format: '{phase} [{bar}] {percentage}% | {detail}', hideCursor: true, clearOnComplete: false, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let currentStep = '';
  const show = (total: number, value: number, payload: object) => {
    if (!started) {
      bar.start(Math.max(total, 1), value, payload);
      started = true;
    } else {
      bar.setTotal(Math.max(total, 1));
      bar.update(value, payload);
    }
  };
  return {
    setup(step, done, total) {
      if (step !== currentStep && started) bar.setTotal(total);
      currentStep = step;
      show(total, done, { phase: step, detail: `${done}/${total}` });
    },
    update(s) {
      show(s.phase === 'sending' ? s.offeredTotal : s.expectedDeliveries, s.phase === 'sending' ? s.sent : s.delivered, {
        phase: s.phase,
        detail: line(s).replace(/^\w+ /, ''),
      });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
