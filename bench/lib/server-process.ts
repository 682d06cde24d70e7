// A server under test as a child process (its CPU time and memory are its own), optionally
// pinned to given cores with taskset, started with PORT=0 and found by the line announcing its port.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export const ROOT = path.resolve(__dirname, '../..');

export interface ServerProcess {
  pid: number;
  /** The last log lines (JSON) the server wrote after it started listening. */
  recentLog: string[];
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** Entry point relative to the repository root. */
  entry?: string;
  /** Another checkout to run the server of (a baseline: the code before a change); this one by default. */
  root?: string;
  env?: Record<string, string>;
  /** taskset CPU list, e.g. "0". */
  cpus?: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  timeoutMs?: number;
}

export function startServer(options: StartServerOptions = {}): Promise<ServerProcess> {
  const node = [...(options.nodeArgs ?? []), '--import', 'tsx', options.entry ?? 'server/src/main.ts'];
  const [cmd, args] = options.cpus ? ['taskset', ['-c', options.cpus, process.execPath, ...node]] : [process.execPath, node];
  const child: ChildProcess = spawn(cmd, args, {
    cwd: options.root ?? ROOT,
    // Every load client of a benchmark connects from 127.0.0.1: lift the per-address cap.
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', MAX_CONNECTIONS_PER_ADDRESS: '1000000', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  const recentLog: string[] = [];
  const KEEP_LINES = 200;
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${options.timeoutMs ?? 60_000} ms: ${stderr.join('').slice(-2000)}`));
    }, options.timeoutMs ?? 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr.join('').slice(-2000)}`));
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      recentLog.push(line);
      if (recentLog.length > KEEP_LINES) recentLog.shift();
      let entry: { msg?: string; port?: number; url?: string };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      // The product logs {"msg":"listening","port":…}; bench/broker.ts prints {"port":…}.
      if (!entry.port || (entry.msg !== undefined && entry.msg !== 'listening')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const url = entry.url ?? `http://127.0.0.1:${entry.port}`;
      resolve({
        pid: child.pid!,
        recentLog,
        url,
        port: entry.port,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
