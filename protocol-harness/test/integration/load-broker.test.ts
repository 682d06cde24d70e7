// `harness load --broker` against our STOMP core started alone (bench/broker.ts: the
// product's transport and STOMP layers, an open router, no database), and against RabbitMQ's
// Web-STOMP when it runs on this machine.
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { LoadReport } from '../../src/load/report';
import { startServer, type ServerProcess } from '../../../bench/lib/server-process';
import { waitFor } from '../../../server/test/support/wait';

const ROOT = path.resolve(__dirname, '../../..');
const IN_CI = process.env.CI === 'true';
const BENCH_BROKER = 'bench/broker.ts';

function harness(args: string[]): Promise<{ code: number; report: LoadReport; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', '--silent', 'harness', '--', 'load', '--broker', '--json', '--no-progress', ...args], { cwd: ROOT, timeout: 150_000 }, (err, stdout, stderr) => {
      try {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, report: JSON.parse(stdout.trim()) as LoadReport, stderr });
      } catch {
        reject(new Error(`no JSON report: ${stdout}\n${stderr}`));
      }
    });
  });
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** RabbitMQ runs on these machines with Web-STOMP off by default: turn it on, as the issue says. */
/** scripts/system-deps.sh enables the plugin; it may take a few seconds to listen after that. */
function webStompUp(): Promise<boolean> {
  return waitFor(() => reachable(15674), { what: 'RabbitMQ Web-STOMP on 15674', timeoutMs: 15_000, everyMs: 500 }).then(() => true, () => false);
}

function expectExactFanOut(report: LoadReport, clients: number, topics: number, sent: number): void {
  expect(report).to.include({ mode: 'broker', clients, subscribed: clients, groups: topics, connectionErrors: 0, ok: true });
  const c = report.counts;
  expect(c.sent).to.equal(sent);
  expect(c.acknowledged).to.equal(sent);
  expect(c.expectedDeliveries).to.equal(sent * (clients / topics));
  expect(c.delivered).to.equal(c.expectedDeliveries);
  expect(c).to.include({ lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0 });
  expect(report.latency.count).to.equal(c.delivered);
}

describe('harness load --broker against our STOMP core alone', function () {
  let broker: ServerProcess | null = null;
  before(async function () {
    broker = await startServer({ entry: BENCH_BROKER });
  });
  after(async () => {
    await broker?.stop();
  });

  it('publishes on /topic/bench.{n} and accounts every delivery to every subscriber, exit status 0', async () => {
    const { code, report, stderr } = await harness(['--url', `ws://127.0.0.1:${broker!.port}/websocket`, '--clients', '30', '--rooms', '3', '--rate', '100', '--duration', '2']);
    expect(code, stderr).to.equal(0);
    expectExactFanOut(report, 30, 3, 200);
  });
});

describe('harness load --broker against RabbitMQ Web-STOMP', function () {
  before(async function () {
    if (!(await webStompUp())) {
      const message = 'RabbitMQ Web-STOMP is not listening on 127.0.0.1:15674 (run scripts/system-deps.sh as root)';
      if (IN_CI) throw new Error(`${message}: CI must run every test`);
      console.warn(`\n  !!! SKIPPING: ${message}\n`);
      this.skip();
    }
  });

  it('runs the same pure publish/subscribe load through amq.topic with nothing lost', async () => {
    const { code, report, stderr } = await harness([
      '--url', 'ws://127.0.0.1:15674/ws', '--login', 'guest', '--passcode', 'guest', '--vhost', '/',
      '--clients', '20', '--rooms', '2', '--rate', '50', '--duration', '2',
    ]);
    expect(code, stderr).to.equal(0);
    expectExactFanOut(report, 20, 2, 100);
  });
});
