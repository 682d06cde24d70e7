// The benchmark broker (bench/broker.ts) as a forked child: its CPU time and memory
// are its own, it can be pinned to a core, and it answers "gc" over IPC with its memory usage.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(__dirname, '../..');

export interface BrokerProcess {
  pid: number;
  port: number;
  /** Runs a full GC in the child and returns its memory usage. */
  gc(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

export function startBrokerProcess(options: { exposeGc?: boolean; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<BrokerProcess> {
  const child: ChildProcess = fork(path.join(ROOT, 'bench/broker.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', ...(options.exposeGc ? ['--expose-gc'] : []), ...(options.nodeArgs ?? [])],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench broker exited with ${code} before listening`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { msg?: string; port?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg !== 'listening' || !entry.port) return;
      resolve({
        pid: child.pid!,
        port: entry.port,
        gc: () =>
          new Promise((done) => {
            child.once('message', (m) => done((m as { memory: NodeJS.MemoryUsage }).memory));
            child.send('gc');
          }),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Pins a process to a CPU list with taskset; false when taskset is missing or refuses. */
export function pin(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-pc', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
