// WORKERS=N: one supervisor process runs N server processes on one port (SO_REUSEPORT: the kernel
// spreads new connections over them), joined by the Redis bus like nodes on different machines.
// The first worker starts alone, so it alone migrates the database; a worker that dies is started
// again after a second; SIGTERM or SIGINT stops them all.
import { fork, type ChildProcess } from 'node:child_process';
import type { Config } from '../config';

export const WORKER_FLAG = '--worker';
/** A worker tells the supervisor it is listening with this IPC message. */
export const LISTENING = 'letschat:listening';

const RESTART_DELAY_MS = 1000;
const STOP_DEADLINE_MS = 12_000;

export function runWorkers(config: Config, script: string, print: (line: string) => void): void {
  const workers = new Map<number, ChildProcess>();
  let stopping = false;
  /** Until the first worker listens, its failure is the deployment's (a port taken since, a bad database): no restart loop. */
  let firstListened = false;

  const startWorker = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const child = fork(script, [WORKER_FLAG], { env: { ...process.env, WORKER_INDEX: String(index) } });
      workers.set(index, child);
      child.on('message', (message) => {
        if (message === LISTENING) {
          firstListened = true;
          resolve();
        }
      });
      child.on('exit', (code, signal) => {
        workers.delete(index);
        resolve();
        if (!firstListened && !stopping) {
          // The worker said why on its own stderr ("Let's Chat could not start: …").
          process.exit(1);
        }
        if (stopping) {
          if (workers.size === 0) process.exit(0);
          return;
        }
        print(`worker ${index} exited (${signal ?? code}); starting it again`);
        setTimeout(() => void startWorker(index), RESTART_DELAY_MS).unref();
      });
    });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    if (workers.size === 0) process.exit(0);
    for (const child of workers.values()) child.kill(signal);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  void (async () => {
    await startWorker(1);
    await Promise.all(Array.from({ length: config.workers - 1 }, (_, i) => startWorker(i + 2)));
    if (!stopping) print(`${config.workers} workers on port ${config.port}`);
  })();
}
