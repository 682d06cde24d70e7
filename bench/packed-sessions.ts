// The session code's share of the packed-frames flood (docs/architecture.md §3a), without a
// network or a database: 100 sessions of 5 users in one broker each receive
// 'ACK\nid:a\nreceipt:r\n\n\0'.repeat(49900) at once, and their turns run until every one has its
// ERROR. Prints the CPU time (user) of the arrival (the 100 `receive` calls) and of the whole, and
// the frames parsed, per run. CPU time, not wall time: it moves less with a shared machine's load.
//   npx tsx bench/packed-sessions.ts
import pino from 'pino';
import { Broker } from '../server/src/stomp/broker';
import { createFeatureRouter } from '../server/src/stomp/router';
import { StompSession, type StompSocket } from '../server/src/stomp/session';

const SESSIONS = 100;
const USERS = 5;
const RUNS = 3;
const PACKED = new Uint8Array(Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'.repeat(49_900)));

/** A socket that takes everything and remembers whether it was ended. */
class SinkSocket implements StompSocket {
  ended = false;
  send(message: Uint8Array | string): number {
    return message.length;
  }
  subscribe(): boolean {
    return true;
  }
  unsubscribe(): boolean {
    return true;
  }
  end(): void {
    this.ended = true;
  }
  close(): void {}
  getBufferedAmount(): number {
    return 0;
  }
  cork(fn: () => void): void {
    fn();
  }
}

async function run(): Promise<{ arrivalCpuMs: number; totalCpuMs: number; framesIn: number }> {
  const broker = new Broker({ router: createFeatureRouter([]), log: pino({ level: 'silent' }), fanout: () => {} });
  try {
    const sockets: SinkSocket[] = [];
    const sessions: StompSession[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const user = 1 + (i % USERS);
      const session = new StompSession(broker, { userId: user, authSessionId: `s${user}`, connectionId: `c${i}` }, '127.0.0.1', 't');
      const socket = new SinkSocket();
      session.opened(socket);
      broker.opened(session);
      session.receive(Buffer.from('CONNECT\naccept-version:1.2\n\n\0'));
      sockets.push(socket);
      sessions.push(session);
    }
    const started = process.cpuUsage();
    for (const session of sessions) session.receive(PACKED);
    const arrivalCpuMs = process.cpuUsage(started).user / 1000;
    while (!sockets.every((s) => s.ended)) await new Promise((resolve) => setImmediate(resolve));
    return { arrivalCpuMs, totalCpuMs: process.cpuUsage(started).user / 1000, framesIn: broker.counters.framesIn };
  } finally {
    await broker.stop();
  }
}

async function main(): Promise<void> {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  process.stdout.write(JSON.stringify(runs.map((r) => ({ arrivalCpuMs: Math.round(r.arrivalCpuMs), totalCpuMs: Math.round(r.totalCpuMs), framesIn: r.framesIn }))) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`packed-sessions: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
