// What every feature is given and what it gives back: a leaf module, so that features and
// the assembly in features/index.ts can share these types without importing each other.
import type { Presence } from '../cluster/presence';
import type { Signals } from '../cluster/signals';
import type { Throttle } from '../cluster/throttle';
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import type { FewTrips } from '../db/few-trips';
import type { Logger } from '../log';
import type { Metrics } from '../observability/metrics';
import type { Publisher, StompFeature } from '../stomp/api';
import type { Route } from '../transport/route';
import type { SharedCallStore } from './calls/call-store';
import type { GroupCallStore } from './group-calls/group-call-store';
import type { Mailer } from './mail/mailer';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

/** A database transaction one feature opens and another's repositories write in; services only pass it on. */
export type Transaction = Knex.Transaction;

/** Work that must wait for a transaction's commit (files outside the database); it never throws. */
export type AfterCommit = () => Promise<void>;

/**
 * Another feature's part in deleting a room: its rows of the room removed in the transaction
 * that deletes the room; what a rollback could not undo (files in a folder) answered, to run
 * once that transaction committed.
 */
export type RoomRemoval = (trx: Transaction, roomId: number) => Promise<AfterCommit | null>;

export interface Deps {
  config: Config;
  db: Knex;
  /** The message writer's transactions: one round trip each on MariaDB (db/few-trips.ts). */
  fewTrips: FewTrips;
  log: Logger;
  clock: Clock;
  publisher: Publisher;
  mailer: Mailer;
  metrics: Metrics;
  cluster: ClusterDeps;
}

/** What features need to work across nodes; one process alone has local signals and presence. */
export interface ClusterDeps {
  signals: Signals;
  /** Whether a user is connected to any node. */
  presence: Presence;
  /** "At most once per interval" across nodes (typing). */
  throttle: Throttle;
  /** Call state every node shares (a cluster); null: calls live in this process's memory. */
  sharedCallStore: SharedCallStore | null;
  /** Group calls every node sees (a cluster); null: in this process's memory. */
  sharedGroupCallStore: (() => GroupCallStore) | null;
}

export interface ServerFeature {
  routes?: Route[];
  stomp?: StompFeature;
  stop?(): Promise<void>;
}
