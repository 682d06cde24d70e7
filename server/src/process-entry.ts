// The process entry (`npm start`): one server, a supervisor of WORKERS servers
// (cluster/workers.ts), or one of those workers; SIGTERM and SIGINT stop it within a deadline.
import { LISTENING, runWorkers, WORKER_FLAG } from './cluster/workers';
import { loadConfig, type Config } from './config';
import { checkPortFree } from './transport/listen';

/** What the entry needs of a started server. */
export interface Started {
  config: Config;
  stop(): Promise<void>;
}

/** Starts one server; `sharePort` when it is one of several workers on the port. */
export type Start = (config: Config, options: { sharePort: boolean }) => Promise<Started>;

/** After SIGTERM or SIGINT the process exits within this, finished or not. */
const STOP_DEADLINE_MS = 10_000;

/** One line for a person: where to open the app, where data and mail go. */
export function startupLine(config: Config): string {
  const data = config.databaseUrl.startsWith('sqlite:')
    ? `SQLite ${config.databaseUrl.slice('sqlite:'.length) || ':memory:'}`
    : `MySQL ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}`;
  const mail = config.smtpUrl ? `mail via ${new URL(config.smtpUrl).host}` : `mail in ${config.mailDir.replace(/\/*$/, '/')}`;
  return `Let's Chat on ${config.publicUrl} — ${data}, ${mail}`;
}

/** `script` is the entry file itself: the supervisor forks it again for each worker. */
export function runProcess(script: string, start: Start): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`Let's Chat could not start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const isWorker = process.argv.includes(WORKER_FLAG);
  if (config.workers > 1 && !isWorker) {
    // The workers share the port with each other (SO_REUSEPORT), which would let them share it
    // with any other server too: the supervisor refuses a taken port as one process does.
    checkPortFree(config.host, config.port).then(
      () => {
        process.stdout.write(`${startupLine(config)}\n`);
        runWorkers(config, script, (line) => process.stdout.write(`${line}\n`));
      },
      (err: unknown) => {
        console.error(`Let's Chat could not start: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
    return;
  }
  // Handlers first, so no signal finds the process without one. A signal may come twice (npm
  // forwards it, a supervisor and a terminal both send it): the second must not kill the process
  // mid-stop, so the handlers stay and stop once.
  let server: Started | null = null;
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
