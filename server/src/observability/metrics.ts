// Prometheus metrics (prom-client), one registry per server (tests run several in one process).
// Hot paths only bump plain integers (stomp/ counters, the writer's tally); these are read when
// Prometheus scrapes, so measuring costs the product next to nothing.
import client from 'prom-client';
import type { Knex } from '../db/knex';
import type { StompCounters } from '../stomp/broker';

export interface MetricsSources {
  stomp: StompCounters;
  openSockets(): number;
  connectedSessions(): number;
  db: Knex;
}

export class Metrics {
  readonly registry = new client.Registry();
  private readonly httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  private readonly queryDuration: client.Histogram<'pool'>;
  private readonly calls: client.Counter<'outcome'>;
  private readonly stored: client.Counter;
  private readonly indexed: client.Counter;
  private readonly batchSeconds: client.Histogram;
  private readonly pushes: client.Counter<'outcome'>;

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    this.httpDuration = new client.Histogram({
      name: 'letschat_http_request_duration_seconds',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.queryDuration = new client.Histogram({
      name: 'letschat_db_query_duration_seconds',
      help: 'Database query latency by pool: main (Knex), writer (the message transactions\' multi-statement round trips on MariaDB)',
      labelNames: ['pool'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [this.registry],
    });
    this.calls = new client.Counter({ name: 'letschat_calls_total', help: 'Calls by outcome', labelNames: ['outcome'], registers: [this.registry] });
    this.stored = new client.Counter({ name: 'letschat_messages_stored_total', help: 'Chat messages committed', registers: [this.registry] });
    // Behind letschat_messages_stored_total by the messages waiting for the search index (system messages never go in).
    this.indexed = new client.Counter({ name: 'letschat_messages_indexed_total', help: 'Chat messages written to the search index after their commit', registers: [this.registry] });
    // One transaction in flight stores the messages that queued meanwhile: its time is each message's wait.
    this.batchSeconds = new client.Histogram({
      name: 'letschat_message_batch_seconds',
      help: 'Time of each message transaction (its count: transactions; messages stored: letschat_messages_stored_total)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [this.registry],
    });
    this.pushes = new client.Counter({
      name: 'letschat_pushes_total',
      help: 'Web Push sends by outcome: sent, gone (endpoint deleted), failed, dropped (too many in flight), coalesced (not sent)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
  }

  /** The counts kept elsewhere, read when scraped. */
  observe(sources: MetricsSources): void {
    const r = [this.registry];
    const gauge = (name: string, help: string, read: () => number) =>
      new client.Gauge({ name, help, registers: r, collect() { this.set(read()); } });
    const counter = (name: string, help: string, read: () => number) => {
      let reported = 0;
      return new client.Counter({
        name, help, registers: r,
        collect() {
          const now = read();
          this.inc(now - reported);
          reported = now;
        },
      });
    };
    gauge('letschat_websocket_connections', 'Open WebSocket connections', sources.openSockets);
    gauge('letschat_stomp_sessions', 'STOMP sessions past CONNECT', sources.connectedSessions);
    counter('letschat_stomp_frames_received_total', 'STOMP frames received', () => sources.stomp.framesIn);
    counter('letschat_stomp_frames_sent_total', 'STOMP frames and heart-beats sent', () => sources.stomp.framesOut);
    counter('letschat_messages_published_total', 'Messages published to a destination (fan-outs)', () => sources.stomp.published);
    counter('letschat_deliveries_total', 'MESSAGE frames delivered to subscriptions', () => sources.stomp.deliveries);
    counter('letschat_slow_consumers_closed_total', 'Sockets closed for not keeping up', () => sources.stomp.slowConsumersClosed);
    const pool = () => (sources.db.client as { pool?: { numUsed(): number; numFree(): number } }).pool;
    gauge('letschat_db_pool_used', 'Database connections in use', () => pool()?.numUsed() ?? 0);
    gauge('letschat_db_pool_free', 'Database connections idle', () => pool()?.numFree() ?? 0);
    const started = new Map<string, number>();
    sources.db.on('query', (q: { __knexQueryUid?: string }) => {
      if (q.__knexQueryUid) started.set(q.__knexQueryUid, performance.now());
    });
    const finished = (_: unknown, q: { __knexQueryUid?: string }) => {
      const at = q.__knexQueryUid ? started.get(q.__knexQueryUid) : undefined;
      if (at === undefined) return;
      started.delete(q.__knexQueryUid!);
      this.queryDuration.observe({ pool: 'main' }, (performance.now() - at) / 1000);
    };
    sources.db.on('query-response', (response: unknown, q: { __knexQueryUid?: string }) => finished(response, q));
    sources.db.on('query-error', (err: unknown, q: { __knexQueryUid?: string }) => finished(err, q));
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  /** One round trip of the message writer's own pool (db/few-trips.ts), which Knex does not see. */
  writerTrip(seconds: number): void {
    this.queryDuration.observe({ pool: 'writer' }, seconds);
  }

  messagesStored(count: number, seconds: number): void {
    this.stored.inc(count);
    this.batchSeconds.observe(seconds);
  }

  messagesIndexed(count: number): void {
    this.indexed.inc(count);
  }

  call(outcome: string): void {
    this.calls.inc({ outcome });
  }

  push(outcome: string): void {
    this.pushes.inc({ outcome });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
