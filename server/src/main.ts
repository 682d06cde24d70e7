// Composition root: config → db → features → HTTP + STOMP transport. start() and stop() let
// tests run a real server on port 0.
import { createHash, timingSafeEqual } from 'node:crypto';
import uWS from 'uWebSockets.js';
import { LocalBus, type Bus } from './cluster/bus';
import { ClusterPublisher } from './cluster/cluster-publisher';
import { LocalPresence, RedisPresence, type Presence } from './cluster/presence';
import { RedisBus } from './cluster/redis-bus';
import { LocalThrottle, RedisThrottle } from './cluster/throttle';
import { LISTENING, runWorkers, WORKER_FLAG } from './cluster/workers';
import { loadConfig, withListeningPort, type Config } from './config';
import { createDatabase, migrateLatest, ping, type Knex } from './db/knex';
import { fewTripTransactions } from './db/few-trips';
import { createFeatures } from './features';
import type { Clock } from './features/types';
import { createLogger, type Logger } from './log';
import { Metrics } from './observability/metrics';
import { HttpTransport } from './transport/http';
import type { Route } from './transport/route';
import { mountWebSocket } from './transport/ws';
import { Broker } from './stomp/broker';
import { createFeatureRouter, type StompRouter } from './stomp/router';

export interface RunningServer {
  port: number;
  url: string;
  config: Config;
  db: Knex;
  stop(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  clock?: Clock;
  /** One of several workers on the port (WORKERS=N): listen with SO_REUSEPORT instead of alone. */
  sharePort?: boolean;
}

/** The package silently falls back to a slow JavaScript implementation when its binary cannot load. */
export function uwsImplementation(): 'native' | 'fallback' {
  return String(uWS.App).includes('[native code]') ? 'native' : 'fallback';
}

/**
 * GET /metrics in Prometheus' text format, only for `Authorization: Bearer $METRICS_TOKEN`:
 * 404 when no token is configured (the route does not exist), 401 without the right one.
 */
function metricsRoute(token: string | null, metrics: Metrics): Route {
  const expected = token === null ? null : createHash('sha256').update(`Bearer ${token}`).digest();
  return {
    method: 'GET',
    path: '/metrics',
    public: true,
    async handle(ctx) {
      if (expected === null) return { status: 404, json: { error: 'not_found', message: 'no such route' } };
      const given = createHash('sha256').update(ctx.headers.authorization ?? '').digest();
      if (!timingSafeEqual(given, expected)) {
        return { status: 401, json: { error: 'unauthorized', message: 'a bearer token is required' }, headers: { 'WWW-Authenticate': 'Bearer' } };
      }
      return { text: { contentType: metrics.contentType, body: await metrics.text() } };
    },
  };
}

/** A database that has not answered by then counts as down: a probe must not hang with it. */
export const HEALTH_TIMEOUT_MS = 2000;

/**
 * The database answers or the node is unhealthy (503). The cluster bus down only degrades it
 * (200, `"status":"degraded"`): the node still serves its own clients, so it stays in rotation.
 */
function healthRoute(db: Knex, bus: Bus): Route {
  return {
    method: 'GET',
    path: '/healthz',
    public: true,
    async handle() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database did not answer')), HEALTH_TIMEOUT_MS);
      });
      try {
        await Promise.race([ping(db), timedOut]);
        if (bus.state === 'local') return { json: { status: 'ok' } };
        return { json: { status: bus.state === 'up' ? 'ok' : 'degraded', bus: bus.state, node: bus.nodeId } };
      } catch {
        return { status: 503, json: { status: 'unavailable', message: 'database unreachable' } };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The port could not be taken (another server holds it, or no permission). */
export class ListenError extends Error {}

// The typings lack the (host, port, options, callback) form the native listen has, and the
// ListenOptions enum they declare is not exported at run time.
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;
const LIBUS_LISTEN_DEFAULT = 0;
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: uWS.us_listen_socket | false) => void) => void;

/**
 * uWS shares a port silently by default (SO_REUSEPORT): a second server would start and split
 * the traffic. The product takes its port alone, so a taken port fails at once.
 */
function listenExclusively(app: uWS.TemplatedApp, host: string, port: number, share = false): Promise<uWS.us_listen_socket> {
  return new Promise((resolve, reject) => {
    (app.listen as unknown as ListenWithOptions).call(app, host, port, share ? LIBUS_LISTEN_DEFAULT : LIBUS_LISTEN_EXCLUSIVE_PORT, (socket) =>
      socket ? resolve(socket) : reject(new ListenError(`cannot listen on ${host}:${port}: the port is in use or not allowed`)),
    );
  });
}

/** One line for a person: where to open the app, where data and mail go. */
export function startupLine(config: Config): string {
  const data = config.databaseUrl.startsWith('sqlite:')
    ? `SQLite ${config.databaseUrl.slice('sqlite:'.length) || ':memory:'}`
    : `MySQL ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}`;
  const mail = config.smtpUrl ? `mail via ${new URL(config.smtpUrl).host}` : `mail in ${config.mailDir.replace(/\/*$/, '/')}`;
  return `Let's Chat on ${config.publicUrl} — ${data}, ${mail}`;
}

/** After SIGTERM or SIGINT the process exits within this, finished or not. */
const STOP_DEADLINE_MS = 10_000;

export async function start(initialConfig: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(initialConfig.logLevel);
  const clock = options.clock ?? Date.now;
  log.info({ uws: uwsImplementation() }, 'uWebSockets.js implementation loaded');

  const db = createDatabase(initialConfig.databaseUrl);
  await migrateLatest(db);

  // Listen first so that PORT=0 resolves to a real port before anything derives PUBLIC_URL
  // from it; uWS consults routes per request, so they may be added after listening.
  const app = uWS.App();
  const listenSocket = await listenExclusively(app, initialConfig.host, initialConfig.port, options.sharePort).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });
  const port = uWS.us_socket_local_port(listenSocket);
  const config = withListeningPort(initialConfig, port);

  // Features need the publisher and the broker needs the features' router: the router is
  // filled in once the features exist, before the WebSocket route is mounted.
  let router: StompRouter | null = null;
  const routerOf = () => router!;
  const bus: Bus = config.redisUrl ? new RedisBus(config.redisUrl, log.child({ component: 'bus' })) : new LocalBus();
  let cluster: ClusterPublisher | null = null;
  const redisPresence = bus instanceof RedisBus ? new RedisPresence(bus.redis, bus.nodeId, log.child({ component: 'presence' })) : null;
  const broker = new Broker({
    router: { routeSend: (d) => routerOf().routeSend(d), authorize: (u, d) => routerOf().authorize(u, d) },
    log: log.child({ component: 'stomp' }),
    fanout: (topic, message) => app.publish(topic, message),
    sessionStillValid: async (token, authSessionId) => (await features.authenticator.authenticate(token))?.sessionId === authSessionId,
    connectTimeoutMs: config.connectTimeoutMs,
    maxConnectionsPerUser: config.maxConnectionsPerUser,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    interest: {
      destination: (destination, held) => cluster!.interest.destination(destination, held),
      user: (userId, connected) => {
        cluster!.interest.user(userId, connected);
        redisPresence?.changed(userId, connected);
      },
    },
  });
  cluster = new ClusterPublisher(broker, bus, log.child({ component: 'cluster' }));
  const presence: Presence = redisPresence ?? new LocalPresence((userId) => broker.connectionCount(userId));
  const metrics = new Metrics();
  const fewTrips = fewTripTransactions(config.databaseUrl, db, (seconds) => metrics.writerTrip(seconds));
  metrics.observe({ stomp: broker.counters, openSockets: () => broker.sessionCount, connectedSessions: () => broker.connectedCount, db });
  const features = createFeatures({
    config, db, fewTrips, log, clock, publisher: cluster, metrics,
    cluster: {
      signals: cluster,
      presence,
      throttle: bus instanceof RedisBus ? new RedisThrottle(bus.redis) : new LocalThrottle(),
      redis: bus instanceof RedisBus ? bus.redis : null,
      nodeId: bus.nodeId,
    },
  });
  const { authenticator } = features;
  // After the features' onLost handlers (registered above): they drop what lost signals would
  // have invalidated (remembered cookies) before sessions and subscriptions are checked again.
  bus.onReconnect(() => {
    redisPresence?.renewNow();
    // Logouts and leaves on other nodes while the bus was down were not heard here.
    broker.recheckAll().catch((err: unknown) => log.error({ err }, 're-checking sessions after the bus came back failed'));
  });
  router = createFeatureRouter(features.list.flatMap((f) => (f.stomp ? [f.stomp] : [])));
  mountWebSocket(app, {
    publicOrigin: config.publicOrigin,
    authenticator,
    broker,
    log: log.child({ component: 'websocket' }),
    trustedProxies: config.trustedProxies,
  });

  const http = new HttpTransport({
    publicOrigin: config.publicOrigin,
    staticDir: config.staticDir,
    authenticator,
    log,
    trustedProxies: config.trustedProxies,
    onResponse: (method, route, status, seconds) => metrics.httpRequest(method, route, status, seconds),
  });
  http.add([healthRoute(db, bus), metricsRoute(config.metricsToken, metrics), ...features.list.flatMap((f) => f.routes ?? [])]);
  http.mount(app);

  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info({ port, url, publicUrl: config.publicUrl, database: config.databaseUrl.split(':')[0], bus: bus.state, node: bus.nodeId }, 'listening');

  let stopped = false;
  return {
    port,
    url,
    config,
    db,
    async stop() {
      if (stopped) return;
      stopped = true;
      uWS.us_listen_socket_close(listenSocket);
      http.stopAccepting();
      await broker.stop();
      for (const f of features.list) await f.stop?.();
      redisPresence?.stop();
      await bus.close();
      await fewTrips.close();
      await db.destroy();
      log.info('stopped');
    },
  };
}

/** The process entry: one server, a supervisor of WORKERS servers, or one of those workers. */
function main(): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`Let's Chat could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const isWorker = process.argv.includes(WORKER_FLAG);
  if (config.workers > 1 && !isWorker) {
    process.stdout.write(`${startupLine(config)}\n`);
    runWorkers(config, __filename, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  // Handlers first, so no signal finds the process without one. A signal may come twice (npm
  // forwards it, a supervisor and a terminal both send it): the second must not kill the process
  // mid-stop, so the handlers stay and stop once.
  let server: RunningServer | null = null;
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
    if (!server) return; // still starting: stopped as soon as it has started
    server.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  start(config, { sharePort: isWorker }).then(
    (started) => {
      server = started;
      if (isWorker) process.send?.(LISTENING);
      else process.stdout.write(`${startupLine(started.config)}\n`);
      if (stopping) started.stop().then(() => process.exit(0), () => process.exit(1));
    },
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`Let's Chat could not start: ${message}`);
      console.error(JSON.stringify({ level: 'fatal', msg: 'failed to start', err: String((err as Error)?.stack ?? err) }));
      process.exit(1);
    },
  );
}

if (require.main === module) main();
