// The CI contract both commands keep (docs/operations.md, "Protocol harness"): one exit status per
// kind of outcome, so a job can tell "the product failed" from "the test could not run", and errors
// that name their cause.
import net from 'node:net';

export const EXIT = {
  /** Every check, threshold and expectation held. */
  passed: 0,
  /** A check, threshold or expectation failed, or messages were lost. */
  failed: 1,
  /** The test could not run: server unreachable, login refused, not enough users, TURN unusable. */
  infrastructure: 2,
  /** The generator could not offer the asked load: its figures say nothing about the server. */
  generatorBehind: 3,
  /** A bad flag or value (sysexits.h EX_USAGE). */
  usage: 64,
  /** 128 + the signal's number, as a shell reports a process a signal ended. */
  sigint: 130,
  sigterm: 143,
} as const;

export const EXIT_CODES_HELP = `
Exit status:
  0    passed: every check, threshold and expectation held
  1    a check, threshold or expectation failed, or messages were lost
  2    infrastructure: server unreachable, login refused, not enough users, TURN unusable
  3    the generator could not offer the asked load (harness load)
  64   usage: a bad option or value
  130  interrupted by SIGINT (Ctrl-C), after writing the report of what ran ("interrupted": true)
  143  interrupted by SIGTERM, after writing the report of what ran ("interrupted": true)`;

/** The test could not run for a reason outside the system under test's behaviour. */
export class InfrastructureError extends Error {}

/** The options contradict each other in a way the option parser cannot see. */
export class UsageError extends Error {}

function causeText(cause: unknown): string | null {
  if (!cause || typeof cause !== 'object') return null;
  // Happy-eyeballs connects fail with one error per address tried.
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return [...new Set(cause.errors.map((e) => causeText(e) ?? String(e)))].join('; ');
  }
  const e = cause as { message?: string; code?: string; cause?: unknown };
  return causeText(e.cause) ?? (e.message || e.code || null);
}

/**
 * The cause an operator can act on: undici's fetch says only "fetch failed" and keeps the socket
 * error ("connect ECONNREFUSED 127.0.0.1:1") in `cause`.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const inner = causeText(err.cause);
  if (inner && !err.message.includes(inner)) return err.message === 'fetch failed' ? inner : `${err.message}: ${inner}`;
  return err.message;
}

/** Whether a network-level failure (no HTTP answer at all) is behind this error. */
export function isUnreachable(err: unknown): boolean {
  const text = describeError(err);
  return /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|fetch failed|socket hang up/.test(text);
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface Interruption {
  /** Aborted on the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Which signal arrived first, if any. */
  readonly received: StopSignal | null;
  /** The exit status the signal asks for (130, 143), or null when none arrived. */
  exitCode(): number | null;
  dispose(): void;
}

/**
 * SIGINT and SIGTERM stop the run and let the command write its report, then exit 130 or 143.
 * `npm run` forwards the terminal's SIGINT as well, so one Ctrl-C can arrive twice: only a second
 * SIGINT a second later means "quit now" (still 130).
 */
export function onInterrupt(notice: (signal: StopSignal) => void): Interruption {
  const controller = new AbortController();
  let received: StopSignal | null = null;
  let at = 0;
  const handle = (sig: StopSignal) => () => {
    if (received) {
      if (Date.now() - at > 1000) process.exit(sig === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint);
      return;
    }
    received = sig;
    at = Date.now();
    notice(sig);
    controller.abort();
  };
  const sigint = handle('SIGINT');
  const sigterm = handle('SIGTERM');
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigterm);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    exitCode: () => (received === 'SIGTERM' ? EXIT.sigterm : received === 'SIGINT' ? EXIT.sigint : null),
    dispose() {
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
    },
  };
}

/**
 * Opens (and closes) a TCP connection to the URL's host and port, so that an unreachable server
 * is said once, by its socket error ("connect ECONNREFUSED 127.0.0.1:1"), before any login or
 * handshake; fetch would say only "fetch failed", or "bad port" for ports it refuses to use.
 */
export async function checkReachable(url: string, timeoutMs = 5000): Promise<void> {
  const u = new URL(url);
  const secure = u.protocol === 'https:' || u.protocol === 'wss:';
  const port = Number(u.port || (secure ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new InfrastructureError(`server unreachable: connect to ${host}:${port} timed out after ${timeoutMs} ms`));
    });
    socket.once('error', (err) => reject(new InfrastructureError(`server unreachable: ${describeError(err)}`)));
  });
}
