// Writing an answer to uWS, once, corked, with the security headers every answer carries; a
// streamed body piece by piece as the socket drains. The rules followed here are in LIFECYCLE.md.
import { STATUS_CODES } from 'node:http';
import type { HttpResponse as UwsResponse } from 'uWebSockets.js';
import type { Logger } from '../log';
import type { Outgoing } from './response';

/** A response's progress: `aborted` once the client left or the response was written. */
export interface ResponseState {
  aborted: boolean;
  /** Told when the client goes away (a streamed body in either direction stops then). */
  onAborted?: () => void;
}

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/** Registers onAborted at once, as uWS requires before any asynchronous work. */
export function trackResponse(res: UwsResponse): ResponseState {
  const state: ResponseState = { aborted: false };
  res.onAborted(() => {
    state.aborted = true;
    state.onAborted?.();
  });
  return state;
}

/** Writes the answer unless the client left or it was written already; `close` ends the connection after it. */
export function send(res: UwsResponse, state: ResponseState, out: Outgoing, log: Logger, close = false): void {
  if (state.aborted) return;
  const writeHead = () => {
    res.writeStatus(`${out.status} ${STATUS_CODES[out.status] ?? 'Status'}`);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.writeHeader(k, v);
    for (const [k, v] of Object.entries(out.headers)) res.writeHeader(k, v);
    for (const c of out.setCookies) res.writeHeader('Set-Cookie', c);
  };
  if (out.stream) {
    sendStream(res, state, writeHead, out.stream, log);
    return;
  }
  state.aborted = true; // a response is written once
  res.cork(() => {
    writeHead();
    if (close) res.end(out.body, true);
    else res.end(out.body);
  });
}

/**
 * Writes a streamed body of a known length (Content-Length, written by uWS's tryEnd) piece by
 * piece: each piece is offered to the socket, and what it did not take is offered again from
 * the writable handler until it is taken, before the source is asked for the next. A slow
 * reader holds one piece, not the file. `state.aborted` is set by onAborted (client gone) and
 * stops the loop; a source that fails or ends short of the length closes the connection (the
 * client sees a cut body).
 *
 * One writable handler for the whole response: uWS puts back the handler it called after the
 * call returns, and promise callbacks run inside that call, so a handler registered there
 * (for the next piece) would be replaced by the previous one.
 */
function sendStream(res: UwsResponse, state: ResponseState, writeHead: () => void, body: NonNullable<Outgoing['stream']>, log: Logger): void {
  res.cork(writeHead);
  if (body.length === 0) {
    state.aborted = true;
    res.cork(() => res.end());
    return;
  }
  /** The piece the socket did not take all of: its first byte's offset in the body, and who waits for it. */
  let waiting: { piece: Uint8Array; pieceOffset: number; taken(done: boolean): void } | null = null;
  res.onWritable((offset) => {
    if (!waiting) return true;
    const w = waiting;
    const [ok, done] = res.tryEnd(w.piece.subarray(offset - w.pieceOffset), body.length);
    if (ok) {
      waiting = null;
      w.taken(done);
    }
    return ok;
  });
  void (async () => {
    try {
      for await (const piece of body.pieces()) {
        if (state.aborted) return;
        const pieceOffset = res.getWriteOffset();
        let result: [boolean, boolean] = [false, false];
        res.cork(() => {
          result = res.tryEnd(piece, body.length);
        });
        let done = result[1];
        if (!result[0]) {
          // Resolved once the rest is taken, or by the client going away (which never drains).
          done = await new Promise<boolean>((resolve) => {
            state.onAborted = () => resolve(false);
            waiting = { piece, pieceOffset, taken: resolve };
          });
        }
        if (done) {
          state.aborted = true; // the whole length is written: the response is over
          return;
        }
      }
      if (!state.aborted) throw new Error('the stored body ended before its length');
    } catch (err) {
      log.error({ err }, 'streaming a response failed');
      if (!state.aborted) {
        state.aborted = true;
        res.cork(() => res.close());
      }
    }
  })();
}
