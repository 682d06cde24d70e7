// The slow-consumer policy: a socket that cannot keep up is closed, never silently skipped while
// others receive. The broker's tick reads each socket's unsent bytes a few times a second; above
// the limit it logs and closes the socket (the client reconnects and catches up from history).

/** Unsent bytes above which a socket is a slow consumer. */
export const SLOW_CONSUMER_BYTES = 1024 * 1024;

/**
 * uWS drops a publish to a socket over maxBackpressure, and cannot tell us which socket it was.
 * So its limit sits far above ours (our check closes first, with a log line), and uWS's
 * closeOnBackpressureLimit still closes a socket rather than let it miss a message.
 */
export const UWS_MAX_BACKPRESSURE = 64 * SLOW_CONSUMER_BYTES;

export function isSlowConsumer(bufferedBytes: number, limitBytes: number = SLOW_CONSUMER_BYTES): boolean {
  return bufferedBytes > limitBytes;
}
