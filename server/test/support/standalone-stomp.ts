// A STOMP server without the product: uWS, the /websocket endpoint and the broker, with the
// router and authenticator the caller gives. The protocol tests and the benchmark broker
// (bench/broker.ts) use it; main.ts composes the product server instead.
import uWS from 'uWebSockets.js';
import type { Logger } from '../../src/log';
import type { SessionAuthenticator } from '../../src/transport/route';
import { mountWebSocket } from '../../src/transport/ws';
import { Broker, type BrokerOptions } from '../../src/stomp/broker';
import type { StompRouter } from '../../src/stomp/router';

export interface StandaloneOptions {
  host?: string;
  port?: number;
  router: StompRouter;
  authenticator: SessionAuthenticator;
  /** Origin accepted on the upgrade; defaults to http://localhost:{port}. */
  publicOrigin?: string;
  log: Logger;
  heartbeat?: { send: number; receive: number };
  /** Re-check connected login sessions with the authenticator this often (off when absent). */
  revalidateEveryMs?: number;
  /** The broker's limits, when a test wants them small. */
  limits?: Pick<BrokerOptions, 'budget' | 'connectTimeoutMs' | 'maxConnectionsPerUser' | 'maxConnectionsPerAddress'>;
  /** Told what the clients listen to (a cluster bus, for the cluster benchmark). */
  interest?: BrokerOptions['interest'];
  trustedProxies?: string[];
}

export interface StandaloneServer {
  port: number;
  url: string;
  publicOrigin: string;
  broker: Broker;
  app: uWS.TemplatedApp;
  stop(): Promise<void>;
}

export async function startStandalone(options: StandaloneOptions): Promise<StandaloneServer> {
  const host = options.host ?? '127.0.0.1';
  const app = uWS.App();
  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    app.listen(host, options.port ?? 0, (s) => (s ? resolve(s) : reject(new Error(`cannot listen on ${host}:${options.port}`))));
  });
  const port = uWS.us_socket_local_port(listenSocket);
  const publicOrigin = options.publicOrigin ?? `http://localhost:${port}`;
  const broker = new Broker({
    router: options.router,
    log: options.log,
    fanout: (topic, message) => app.publish(topic, message),
    heartbeat: options.heartbeat,
    interest: options.interest,
    ...options.limits,
    ...(options.revalidateEveryMs
      ? {
          revalidateEveryMs: options.revalidateEveryMs,
          sessionStillValid: async (token: string, authSessionId: string) =>
            (await options.authenticator.authenticate(token))?.sessionId === authSessionId,
        }
      : {}),
  });
  mountWebSocket(app, { publicOrigin, authenticator: options.authenticator, broker, log: options.log, trustedProxies: options.trustedProxies });
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').end();
  });
  return {
    port,
    url: `http://${host}:${port}`,
    publicOrigin,
    broker,
    app,
    async stop() {
      uWS.us_listen_socket_close(listenSocket);
      await broker.stop();
    },
  };
}
