// Services on a real database without a server: a migrated SQLite :memory: database, the real
// repositories, and fakes only for what talks to the outside (the STOMP publisher, the mailer).
// Rules are then tested in milliseconds; the integration tier still runs both databases end to end.
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { createDatabase, migrateLatest, type Knex } from '../../src/db/knex';
import { stepByStep } from '../../src/db/few-trips';
import type { MailMessage, Mailer } from '../../src/features/mail/mailer';
import type { Deps } from '../../src/features/types';
import { Metrics } from '../../src/observability/metrics';
import type { Publisher, StompPrincipal } from '../../src/stomp/api';

export interface Published {
  destination: string;
  body: unknown;
  toUser?: number;
}

/** Records what the features publish and which subscriptions and login sessions they end. */
export class RecordingPublisher implements Publisher {
  published: Published[] = [];
  unsubscribed: Array<{ userId: number; destination: string }> = [];
  closedAuthSessions: string[] = [];
  private readonly listeners: Array<(user: StompPrincipal, remaining: number) => void> = [];

  publish(destination: string, body: string | object): void {
    this.published.push({ destination, body });
  }
  publishToUser(userId: number, destination: string, body: string | object): void {
    this.published.push({ destination, body, toUser: userId });
  }
  unsubscribeUser(userId: number, destination: string): void {
    this.unsubscribed.push({ userId, destination });
  }
  closeAuthSession(authSessionId: string): void {
    this.closedAuthSessions.push(authSessionId);
  }
  connectionCount(): number {
    return 0;
  }
  onConnect(): void {}
  onDisconnect(listener: (user: StompPrincipal, remaining: number) => void): void {
    this.listeners.push(listener);
  }
  onSubscribe(): void {}
  /** What was published to a destination, in order. */
  to(destination: string): unknown[] {
    return this.published.filter((p) => p.destination === destination).map((p) => p.body);
  }
}

export class RecordingMailer implements Mailer {
  sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

export async function memoryDatabase(): Promise<Knex> {
  const db = createDatabase('sqlite::memory:');
  await migrateLatest(db);
  return db;
}

export interface MemoryDeps extends Deps {
  publisher: RecordingPublisher;
  mailer: RecordingMailer;
  /** Moves the injected clock. */
  advance(ms: number): void;
}

/** Everything a feature factory takes, on a fresh in-memory database and a clock the test moves. */
export async function memoryDeps(): Promise<MemoryDeps> {
  let now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const db = await memoryDatabase();
  return {
    config: loadConfig({ DATABASE_URL: 'sqlite::memory:', PUBLIC_URL: 'http://localhost:8080' }),
    db,
    fewTrips: stepByStep(db),
    log: pino({ level: 'silent' }),
    clock: () => now,
    advance: (ms) => {
      now += ms;
    },
    publisher: new RecordingPublisher(),
    mailer: new RecordingMailer(),
    metrics: new Metrics(),
    cluster: { signals: { broadcast() {}, onSignal() {}, onLost() {} }, presence: { isOnline: async () => false, onlineAmong: async () => new Set<number>() }, throttle: { allow: async () => true }, sharedCallStore: null, sharedGroupCallStore: null },
  };
}
