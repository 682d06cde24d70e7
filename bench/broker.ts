// Benchmark-only entry point: the product's uWS transport and STOMP layers with an open router
// (anyone may SUBSCRIBE and SEND to /topic/bench.{n}) and no database or business handlers.
// Never imported by the product. Run: PORT=8090 node --import tsx bench/broker.ts
//
// It prints one JSON log line {"msg":"listening","port":n,"url":…} once listening. Beside
// /websocket it serves the floor that bench/fanout.ts compares the STOMP path with, in bare
// uWS: every message a socket of /bench-raw-publish sends is app.publish'ed as is to every
// socket of /bench-raw. Forked with IPC, it answers the message "gc" (node --expose-gc) with
// its memory usage, for bench/idle-memory.ts. With REDIS_URL set it is one node of a cluster:
// publishes go through the product's ClusterPublisher and Redis bus (bench/cluster-fanout.ts).
import type { Bus } from '../server/src/cluster/bus';
import { busInterest, ClusterPublisher } from '../server/src/cluster/cluster-publisher';
import { RedisBus } from '../server/src/cluster/redis-bus';
import { createLogger } from '../server/src/log';
import type { Publisher } from '../server/src/stomp/api';
import type { Broker } from '../server/src/stomp/broker';
import type { StompRouter } from '../server/src/stomp/router';
import { MAX_MESSAGE_BYTES } from '../server/src/transport/ws';
import { startStandalone } from '../server/test/support/standalone-stomp';

const RAW_PATH = '/bench-raw';
const RAW_TOPIC = 'bench-raw';
const TOKEN = /^bench-([0-9]{1,9})$/;

/** The benchmark's destinations, the only ones this broker opens. */
const BENCH_TOPIC = /^\/topic\/bench\.[A-Za-z0-9_.-]{1,64}$/;

/** Open to anyone, but only on the benchmark topics: a SEND there is published as it is. */
function benchRouter(publisher: () => Publisher): StompRouter {
  return {
    routeSend: (destination) =>
      BENCH_TOPIC.test(destination)
        ? { kind: 'handler', handler: (_user, body) => publisher().publish(destination, body) }
        : { kind: 'refused', message: `only /topic/bench.* here, not ${destination}` },
    authorize: (_user, destination) => BENCH_TOPIC.test(destination),
  };
}

async function main(): Promise<void> {
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn');
  let anonymousIds = 1_000_000_000;
  let broker: Broker | null = null;
  let cluster: ClusterPublisher | null = null;
  const bus: Bus | null = process.env.REDIS_URL ? new RedisBus(process.env.REDIS_URL, log) : null;
  const server = await startStandalone({
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 0),
    router: benchRouter(() => cluster ?? broker!),
    interest: bus ? busInterest(bus) : undefined,
    log,
    // Benchmarks publish thousands of frames a second from one socket, and every client comes
    // from 127.0.0.1: the product's per-connection limits would measure themselves.
    limits: {
      budget: { framesPerSecond: 1e9, frameBurst: 1e9, bytesPerSecond: 1e12, byteBurst: 1e12 },
      maxConnectionsPerUser: 1e9,
      maxConnectionsPerAddress: 1e9,
    },
    // Cookie sid=bench-{n} is user n; no cookie is a fresh anonymous user, so load tools written
    // for any STOMP broker (no cookies) can connect.
    authenticator: {
      authenticate(token) {
        if (token === '') return Promise.resolve({ userId: anonymousIds++, sessionId: 'anonymous' });
        const m = TOKEN.exec(token);
        return Promise.resolve(m ? { userId: Number(m[1]), sessionId: token } : null);
      },
    },
  });
  broker = server.broker;
  if (bus) {
    cluster = new ClusterPublisher(broker, bus, log);
    while (bus.state !== 'up') await new Promise((r) => setTimeout(r, 20));
  }

  const raw = { maxPayloadLength: MAX_MESSAGE_BYTES, maxBackpressure: 64 * 1024 * 1024, idleTimeout: 120, sendPingsAutomatically: true };
  server.app.ws(RAW_PATH, { ...raw, open: (ws) => void ws.subscribe(RAW_TOPIC) });
  server.app.ws(`${RAW_PATH}-publish`, { ...raw, message: (_ws, message) => void server.app.publish(RAW_TOPIC, message, false) });

  process.on('message', (msg) => {
    if (msg !== 'gc') return;
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ memory: process.memoryUsage(), sessions: server.broker.sessionCount });
  });
  const shutdown = () => {
    server.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.stdout.write(JSON.stringify({ level: 30, msg: 'listening', port: server.port, url: server.url }) + '\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
