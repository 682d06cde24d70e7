// The options of `harness load` (command.ts), as commander parses them; also what a --workers
// process is given (workers.ts).
import type { Stage } from './schedule';
import type { Threshold } from './threshold';

export interface LoadOptions {
  /** One server, or several nodes of one cluster that the clients are spread over. */
  url: string | string[];
  usersPrefix?: string;
  password?: string;
  usersFile?: string;
  clients: number;
  rooms: number;
  /** With duration, a fixed rate; or stages instead of both. */
  rate?: number;
  duration?: number;
  stages?: Stage[];
  ramp: number;
  drain: number;
  /** Seconds after the drain during which a missing delivery is late rather than lost. */
  grace: number;
  threshold: Threshold[];
  report?: string;
  junit?: string;
  /** --html FILE: one self-contained page with the report, its per-second charts and per-stage tables. */
  html?: string;
  /** --out FILE.jsonl: one sample a second. */
  out?: string;
  /** --metrics-port: Prometheus text on /metrics while running (0: any free port, announced on stderr). */
  metricsPort?: number;
  metricsHost: string;
  /** Sender/receiver processes on this machine, each owning whole rooms; their reports merge exactly. */
  workers: number;
  messageBytes: number;
  json: boolean;
  progress: boolean;
  broker: boolean;
  login?: string;
  passcode?: string;
  vhost?: string;
  concurrency: number;
  /** Chat mode: reopen dropped sessions with the browser's backoff and catch up (also on the server's resync). */
  reconnect?: boolean;
}
