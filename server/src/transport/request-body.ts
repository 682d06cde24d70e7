// Request bodies off uWS: a JSON body gathered up to MAX_BODY_BYTES, or a streamed body handed to
// its route as it arrives (uploads). uWS reuses a chunk's memory after onData returns, so every
// kept chunk is copied (LIFECYCLE.md).
import { Readable } from 'node:stream';
import type { HttpResponse as UwsResponse } from 'uWebSockets.js';
import { HttpError } from './errors';
import type { ResponseState } from './response-writer';

export const MAX_BODY_BYTES = 64 * 1024;

/** What the request's headers announce: its declared length and whether a body follows at all. */
export function announcedBody(headers: Record<string, string>): { declared: number; hasBody: boolean } {
  const declared = Number(headers['content-length'] ?? 0);
  // uWS never calls onData for a request without a body: only read when one is announced.
  return { declared, hasBody: declared > 0 || headers['transfer-encoding'] !== undefined };
}

/** Collects the body up to MAX_BODY_BYTES; null when it grows past it. */
export function readBody(res: UwsResponse, state: ResponseState, done: (body: Buffer | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  res.onData((chunk, isLast) => {
    if (state.aborted || overflow) return;
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      overflow = true;
      done(null);
      return;
    }
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) done(Buffer.concat(chunks));
  });
}

/** A gathered body as JSON: none is undefined, another media type 415, broken JSON 400. */
export function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'unsupported_media_type', 'body must be application/json');
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'malformed_json', 'body is not valid JSON');
  }
}

export interface BodyStream {
  body: Readable;
  /** Whether the whole body has arrived (a route that answers before it did leaves the rest unread). */
  ended(): boolean;
}

/**
 * A body read as a stream: chunks are pushed into a Readable as uWS hands them over, and the
 * socket is paused while the reader is behind (backpressure), so at most a few chunks are held
 * whatever the body's size. Past maxBytes the stream fails and `tooLarge` is called at once,
 * without waiting for the rest of the body.
 */
export function streamBody(res: UwsResponse, state: ResponseState, hasBody: boolean, maxBytes: number, tooLarge: () => void): BodyStream {
  let paused = false;
  let ended = false;
  const body = new Readable({
    highWaterMark: 256 * 1024,
    read: () => {
      if (paused && !state.aborted) {
        paused = false;
        res.resume();
      }
    },
  });
  state.onAborted = () => body.destroy(new Error('client went away'));
  let size = 0;
  if (!hasBody) {
    ended = true;
    body.push(null);
  } else {
    res.onData((chunk, isLast) => {
      if (state.aborted || body.destroyed) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        body.destroy(new Error('body too large'));
        tooLarge();
        return;
      }
      if (!body.push(Buffer.from(new Uint8Array(chunk))) && !isLast) {
        paused = true;
        res.pause();
      }
      if (isLast) {
        ended = true;
        body.push(null);
      }
    });
  }
  return { body, ended: () => ended };
}
