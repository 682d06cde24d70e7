// Composition root: config → db → cluster → broker → features → HTTP + STOMP transport.
// start() and stop() let tests run a real server on port 0; `npm start` runs process-entry.ts.
import uWS from 'uWebSockets.js';
import { createCluster } from './cluster/create-cluster';
import { withListeningPort, type Config } from './config';
import { createDatabase, migrateLatest, ping, type Knex } from './db/knex';
import { fewTripTransactions } from './db/few-trips';
import { createFeatures } from './features';
import type { Clock } from './features/types';
import { createLogger, type Logger } from './log';
import { healthRoute } from './observability/health';
import { Metrics } from './observability/metrics';
import { metricsRoute } from './observability/metrics-route';
import { runProcess } from './process-entry';
import { HttpTransport } from './transport/http';
import { listen, uwsImplementation } from './transport/listen';
import { mountWebSocket } from './transport/ws';
import { Broker } from './stomp/broker';
import { createFeatureRouter } from './stomp/router';

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

export async function start(initialConfig: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(initialConfig.logLevel);
  const clock = options.clock ?? Date.now;
  log.info({ uws: uwsImplementation() }, 'uWebSockets.js implementation loaded');

  const db = createDatabase(initialConfig.databaseUrl);
  await migrateLatest(db);

  // Listen first so that PORT=0 resolves to a real port before anything derives PUBLIC_URL
  // from it; uWS consults routes per request, so they may be added after listening.
  const app = uWS.App();
  const listenSocket = await listen(app, initialConfig.host, initialConfig.port, options.sharePort).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });
  const port = uWS.us_socket_local_port(listenSocket);
  const config = withListeningPort(initialConfig, port);

  // The broker and the features need each other: features publish through the broker, the
  // broker routes frames to their handlers and re-checks logins with their authenticator. The
  // broker gets a router the features' tables are added to once they exist, as the HTTP routes
  // are added to the HTTP transport; both before the WebSocket route is mounted, so no frame
  // or login check can come before them (nothing here awaits between the two).
  const cluster = createCluster(config.redisUrl, log);
  const router = createFeatureRouter();
  const broker = new Broker({
    router,
    log: log.child({ component: 'stomp' }),
    fanout: (topic, message) => app.publish(topic, message),
    sessionStillValid: async (token, authSessionId) => (await features.authenticator.authenticate(token))?.sessionId === authSessionId,
    connectTimeoutMs: config.connectTimeoutMs,
    maxConnectionsPerUser: config.maxConnectionsPerUser,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    interest: cluster.interest,
  });
  const { publisher, presence } = cluster.join(broker);
  const metrics = new Metrics();
  const fewTrips = fewTripTransactions(config.databaseUrl, db, (seconds) => metrics.writerTrip(seconds));
  metrics.observe({ stomp: broker.counters, openSockets: () => broker.sessionCount, connectedSessions: () => broker.connectedCount, db });
  const features = createFeatures({
    config, db, fewTrips, log, clock, publisher, metrics,
    cluster: { signals: publisher, presence, throttle: cluster.throttle, sharedCallStore: cluster.sharedCallStore, sharedGroupCallStore: cluster.sharedGroupCallStore },
  });
  const { authenticator } = features;
  router.add(features.list.flatMap((f) => (f.stomp ? [f.stomp] : [])));
  // After the features' onLost handlers (registered above): they drop what lost signals would
  // have invalidated (remembered cookies) before sessions and subscriptions are checked again.
  cluster.onReconnect(() => {
    // Logouts and leaves on other nodes while the bus was down were not heard here.
    broker.recheckAll().catch((err: unknown) => log.error({ err }, 're-checking sessions after the bus came back failed'));
  });
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
  http.add([
    healthRoute({ pingDatabase: () => ping(db), bus: cluster }),
    metricsRoute(config.metricsToken, metrics),
    ...features.list.flatMap((f) => f.routes ?? []),
  ]);
  http.mount(app);

  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info({ port, url, publicUrl: config.publicUrl, database: config.databaseUrl.split(':')[0], bus: cluster.state, node: cluster.nodeId }, 'listening');

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
      await cluster.close();
      await fewTrips.close();
      await db.destroy();
      log.info('stopped');
    },
  };
}

if (require.main === module) runProcess(__filename, start);
