// `harness load`: options, users, setup, the run, the report, the exit status, Ctrl-C.
import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Credentials } from './chat-rest';
import { drive } from './driver';
import { createProgress } from './progress';
import { exitCode, formatReport, type LoadReport } from './report';
import { prepareBroker, prepareChat, type Scenario } from './scenario';

export interface LoadOptions {
  /** One server, or several nodes of one cluster that the clients are spread over. */
  url: string | string[];
  usersPrefix?: string;
  password?: string;
  usersFile?: string;
  clients: number;
  rooms: number;
  rate: number;
  duration: number;
  ramp: number;
  drain: number;
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

/** The browser's reconnect base (docs/spec.md §9, docs/operations.md "Reconnecting"). */
const BROWSER_RECONNECT_BASE_MS = 5000;

/** The seeded accounts' domain (admin CLI `seed`). */
const SEED_DOMAIN = 'example.test';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer is required');
  return n;
}

function nonNegative(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('a number of 0 or more is required');
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a number above 0 is required');
  return n;
}

/** One user a line, `email,password` or `email password`; blank lines and # comments skipped. */
export function parseUsersFile(text: string): Credentials[] {
  const users: Credentials[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const lineText = raw.trim();
    if (!lineText || lineText.startsWith('#')) return;
    const m = /^([^\s,]+)[\s,]+(.+)$/.exec(lineText);
    if (!m) throw new Error(`users file line ${i + 1}: expected "email,password"`);
    users.push({ email: m[1], password: m[2] });
  });
  return users;
}

export function chatUsers(o: LoadOptions): Credentials[] {
  if (o.usersFile) {
    const users = parseUsersFile(fs.readFileSync(o.usersFile, 'utf8'));
    if (users.length < o.clients) throw new Error(`${o.usersFile} lists ${users.length} users, --clients asks for ${o.clients}`);
    return users.slice(0, o.clients);
  }
  if (!o.usersPrefix || o.password === undefined) throw new Error('chat mode needs --users-prefix and --password, or --users-file');
  return Array.from({ length: o.clients }, (_x, i) => ({ email: `${o.usersPrefix}${i + 1}@${SEED_DOMAIN}`.toLowerCase(), password: o.password! }));
}

export async function runLoad(o: LoadOptions, interrupt: AbortSignal): Promise<LoadReport> {
  const progress = createProgress(o.progress);
  const urls = [o.url].flat();
  let scenario: Scenario | null = null;
  try {
    scenario = o.broker
      ? await prepareBroker({
          url: urls[0],
          urls,
          clients: o.clients,
          topics: o.rooms,
          login: o.login,
          passcode: o.passcode,
          vhost: o.vhost,
          messageBytes: o.messageBytes,
          connectConcurrency: o.concurrency,
          progress: progress.setup,
        })
      : await prepareChat({
          url: urls[0],
          urls,
          users: chatUsers(o),
          rooms: o.rooms,
          messageBytes: o.messageBytes,
          loginConcurrency: Math.min(o.concurrency, 16),
          connectConcurrency: o.concurrency,
          ...(o.reconnect ? { reconnectBaseMs: BROWSER_RECONNECT_BASE_MS } : {}),
          progress: progress.setup,
        });
    return await drive(scenario, {
      schedule: { ratePerSecond: o.rate, durationSeconds: o.duration, rampSeconds: o.ramp },
      drainSeconds: o.drain,
      interrupt,
      onProgress: progress.update,
    });
  } finally {
    progress.stop();
    await scenario?.close();
  }
}

export function loadCommand(): Command {
  return new Command('load')
    .description(
      'Drive STOMP load and account for every message: sent, acknowledged (receipts), expected and actual deliveries, ' +
        'lost, duplicated, out of order, send→deliver latency (HDR histogram), throughput, connection errors. ' +
        'Chat mode logs users in over REST, puts them into rooms and sends on /app/private-message; --broker mode ' +
        'drives pure publish/subscribe on /topic/bench.{n}. Exit status 1 on any loss, duplicate, reorder, ' +
        'misdelivery, refused SEND or connection error. Ctrl-C stops sending and still prints the report.',
    )
    .requiredOption(
      '--url <url...>',
      'server base URL (http://host:port; the WebSocket is {url}/websocket) or, with --broker, a ws:// URL; ' +
        'several URLs (nodes of one cluster): the clients are spread over them in turn',
    )
    .option('--users-prefix <prefix>', 'seeded users {prefix}1@example.test … {prefix}N@example.test (admin CLI `seed`)')
    .option('--password <password>', 'password of the seeded users')
    .option('--users-file <file>', 'users to log in, one "email,password" a line (instead of --users-prefix)')
    .requiredOption('--clients <n>', 'STOMP sessions, one per user', positiveInt)
    .option('--rooms <n>', 'rooms (chat) or topics (broker); clients are split into equal contiguous blocks', positiveInt, 1)
    .requiredOption('--rate <msgs_per_s>', 'offered rate, messages per second over all clients (open loop)', positive)
    .requiredOption('--duration <s>', 'seconds of sending', positive)
    .option('--ramp <s>', 'seconds to rise linearly from 0 to the full rate (within --duration)', nonNegative, 0)
    .option('--drain <s>', 'seconds to wait after the last send for receipts and deliveries', nonNegative, 10)
    .option('--message-bytes <n>', 'approximate size of each message body', positiveInt, 64)
    .option('--concurrency <n>', 'logins and WebSocket handshakes in flight at once', positiveInt, 50)
    .option('--json', 'print the report as one JSON object on stdout', false)
    .option('--no-progress', 'no live progress on stderr')
    .option('--broker', 'pure publish/subscribe on /topic/bench.{n}: no REST, no rooms', false)
    .option('--reconnect', 'chat: a dropped session reopens as the browser does (jittered backoff from 5 s), subscribes again and catches up from history by seq; so does a session told to resync', false)
    .addOption(new Option('--login <login>', 'STOMP CONNECT login (--broker; RabbitMQ: guest)'))
    .addOption(new Option('--passcode <passcode>', 'STOMP CONNECT passcode (--broker; RabbitMQ: guest)'))
    .addOption(new Option('--vhost <host>', 'STOMP CONNECT host header (--broker; RabbitMQ: /)'))
    .action(async (o: LoadOptions) => {
      const controller = new AbortController();
      let interruptedAt = 0;
      const onSigint = () => {
        // `npm run` forwards the terminal's SIGINT to us as well, so one Ctrl-C can arrive twice:
        // only a second press a moment later means "quit now".
        if (controller.signal.aborted) {
          if (Date.now() - interruptedAt > 1000) process.exit(130);
          return;
        }
        interruptedAt = Date.now();
        process.stderr.write('\ninterrupted: stopping, then reporting (Ctrl-C again to quit now)\n');
        controller.abort();
      };
      process.on('SIGINT', onSigint);
      try {
        const report = await runLoad(o, controller.signal);
        process.stdout.write((o.json ? JSON.stringify(report) : formatReport(report)) + '\n');
        process.exitCode = exitCode(report);
      } catch (err) {
        process.stderr.write(`load: ${(err as Error).message}\n`);
        process.exitCode = 2;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
}
