// Downloads under a flood (docs/architecture.md §3a): one user asks for 1-byte ranges of an
// attachment as fast as 16 connections allow while a neighbour reads chat history one request at
// a time; the neighbour's latency is measured idle first, then under the flood, and the flood's
// rate and answers are counted. A fresh MariaDB database; the server is a child process.
//   node --import tsx bench/download-flood.ts [--seconds 15] [--connections 16]
//     [--baseline-code DIR]  run the server of another checkout (the code before a change) instead
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { api, type Attachment } from '@common/api';
import { createRoom, login, type LoggedInUser } from '../protocol-harness/src/load/chat-rest';
import { createBenchDatabase } from './lib/mariadb';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '16' },
    'baseline-code': { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const PASSWORD = 'bench-downloads-pass';
const PREFIX = 'benchdl';

const log = (line: string) => process.stderr.write(`${line}\n`);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The neighbour's history requests for `seconds`, one at a time: p50, p99, count. */
async function neighbour(base: string, who: LoggedInUser, roomId: number, seconds: number) {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(`${base}${api.chatHistory}?chatRoomId=${roomId}&page=0`, { headers: { cookie: who.cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`history answered ${res.status}`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), requests: times.length };
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('downloads');
  const env = { ...process.env, DATABASE_URL: database.url };
  const root = args['baseline-code'] ?? ROOT;
  try {
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'migrate'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', '3', '--password', PASSWORD, '--prefix', PREFIX], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const server = await startServer({ root, env: { DATABASE_URL: database.url, LOG_LEVEL: 'info' } });
    try {
      const [flooder, victim, friend] = await Promise.all([1, 2, 3].map((n) => login(server.url, { email: `${PREFIX}${n}@example.test`, password: PASSWORD })));
      const floodRoom = await createRoom(server.url, flooder, friend);
      const victimRoom = await createRoom(server.url, victim, friend);
      const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${floodRoom}`, {
        method: 'POST', headers: { cookie: flooder.cookie, 'content-type': 'application/pdf', 'x-file-name': 'a.pdf' }, body: new Uint8Array(Buffer.alloc(1024 * 1024, 1)),
      });
      const att = (await res.json()) as Attachment;

      const idle = await neighbour(server.url, victim, victimRoom, Math.min(10, SECONDS));
      log(`idle: neighbour history p50 ${idle.p50.toFixed(1)} ms, p99 ${idle.p99.toFixed(1)} ms (${idle.requests} requests)`);

      let flooding = true;
      const answers = new Map<number, number>();
      const loops = Array.from({ length: CONNECTIONS }, async () => {
        while (flooding) {
          const r = await fetch(server.url + att.url, { headers: { cookie: flooder.cookie, range: 'bytes=0-0' } });
          await r.arrayBuffer();
          answers.set(r.status, (answers.get(r.status) ?? 0) + 1);
        }
      });
      const t0 = performance.now();
      const flood = await neighbour(server.url, victim, victimRoom, SECONDS);
      const seconds = (performance.now() - t0) / 1000;
      flooding = false;
      await Promise.all(loops);
      const total = [...answers.values()].reduce((a, b) => a + b, 0);
      log(`flood: ${(total / seconds).toFixed(0)} req/s of 1-byte ranges (${JSON.stringify(Object.fromEntries(answers))}); neighbour history p50 ${flood.p50.toFixed(1)} ms, p99 ${flood.p99.toFixed(1)} ms (${flood.requests} requests)`);
      console.log(JSON.stringify({ idle, flood, floodRate: total / seconds, answers: Object.fromEntries(answers) }));
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
