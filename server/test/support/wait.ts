// Waiting in tests: for the event or state a test means, never for a fixed time. A fixed sleep is
// both too long when the machine is quiet and too short when it is loaded (the test machines are
// small and shared); a wait for the state itself is neither.
//
//   await waitFor(() => seen.length === 2, 'both disconnects reported');      // polls, up to WAIT_MS
//   const row = await waitFor(() => db('messages').where({ id }).first(), { what: 'the row', timeoutMs: 30_000 });
//   const shown = await readUntil(() => notifications(page), (n) => n.length === 2, 'two notifications');
//   await eventually(async () => expect(await unread()).to.equal(0));        // an assertion, retried
//   await within(socketClosed, 10_000, 'the socket to close');               // a promise, with a deadline
//   await expectNothingFor(300, 'a message to bob', () => inbox.length > 0);  // a negative: see below
//
// Proving that something does NOT happen needs an observation window: expectNothingFor is the
// one place that holds a fixed time on purpose. Prefer a positive barrier where the protocol
// offers one (a later marker message or a RECEIPT on the same path: whatever would have come
// before it has come by then), and keep the window for when none exists.

/** The default patience of a wait: long enough for a loaded machine, spent only when failing. */
export const WAIT_MS = 20_000;

export interface WaitOptions {
  /** What is awaited, for the error when it never comes. */
  what: string;
  timeoutMs?: number;
  /** Polling period; short, as a check is cheap next to a test. */
  everyMs?: number;
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describeValue(value: unknown): string {
  if (value instanceof Error) return `threw ${value.message}`;
  try {
    return `last saw ${JSON.stringify(value)}`;
  } catch {
    return `last saw ${String(value)}`;
  }
}

/**
 * Polls `check` until it returns a truthy value, and returns that value. A check that throws is
 * retried (a row not there yet, a server not listening yet). Fails after the timeout saying what
 * was awaited and what the check last returned.
 */
export function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions | string): Promise<Truthy<T>> {
  return readUntil(check, Boolean, options) as Promise<Truthy<T>>;
}

/** Reads until `done` holds of what was read, and returns that; as waitFor otherwise. */
export async function readUntil<T>(read: () => T | Promise<T>, done: (value: T) => boolean, options: WaitOptions | string): Promise<T> {
  const { what, timeoutMs = WAIT_MS, everyMs = 20 } = typeof options === 'string' ? { what: options } : options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${describeValue(last)})`);
    await pause(everyMs);
  }
}

/**
 * Retries an assertion (chai's expect, say) until it passes; on timeout, fails with its last
 * failure, which says what was expected and what was found.
 */
export async function eventually(assertion: () => unknown, options: { timeoutMs?: number; everyMs?: number } = {}): Promise<void> {
  const { timeoutMs = WAIT_MS, everyMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() >= deadline) {
        if (err instanceof Error) err.message = `still failing after ${timeoutMs} ms: ${err.message}`;
        throw err;
      }
    }
    await pause(everyMs);
  }
}

/** `promise`, or a rejection naming what was awaited if it has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A fixed observation window, the only way to see that something does not happen when no later
 * event can stand as a barrier: fails as soon as `happened` is true, or if it is at the end.
 */
export async function expectNothingFor(ms: number, what: string, happened: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await happened()) throw new Error(`unexpected: ${what}`);
    const left = end - Date.now();
    if (left < 0) return;
    await pause(Math.min(20, left + 1));
  }
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

/** A promise settled from outside: a gate a test opens, or an event a fake reports. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** One turn of the event loop (I/O and timers due included), without waiting for any time. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
