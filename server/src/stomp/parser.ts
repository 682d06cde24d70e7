// The incremental STOMP parser: bytes in (split anywhere, several frames per chunk), frames
// out. Pure: no I/O, no timers. Grammar and rules from the STOMP 1.2 specification:
//   frame = command EOL *(header EOL) EOL *OCTET NULL *(EOL);  EOL = [CR] LF
// Heart-beats (bare EOLs) between frames are skipped. A body is read by content-length when
// present (it may then contain NULs), otherwise up to the first NUL. Every violation and every
// limit ends the parser with a StompParseError; nothing else is ever thrown.
// A caller may ask for at most so many frames at a time: the rest of the input stays buffered,
// unparsed, until pulled, so a session parses no further than its frame budget allows
// (docs/architecture.md §3a).
import { escapesHeaders, unescapeHeader, type Frame, type StompVersion } from './frame';

export interface ParserLimits {
  /** Bytes from the first byte of the command through the terminating NUL. */
  maxFrameBytes: number;
  maxHeaders: number;
  /** Bytes of one header (or command) line, without its EOL. */
  maxHeaderLineBytes: number;
}

export const DEFAULT_LIMITS: ParserLimits = {
  maxFrameBytes: 64 * 1024,
  maxHeaders: 100,
  maxHeaderLineBytes: 8 * 1024,
};

export class StompParseError extends Error {
  constructor(message: string, readonly limit: boolean = false) {
    super(message);
  }
}

export interface ParseResult {
  frames: Frame[];
  /** Set once the input broke a rule; the parser accepts nothing after it. */
  error: StompParseError | null;
}

const LF = 10;
const CR = 13;
const NUL = 0;
const COLON = 58;
const BACKSLASH = 92;
const DIGITS = /^[0-9]{1,10}$/;
const EMPTY_BODY = Buffer.alloc(0);

/** The head (command and headers) of the frame being read, once its blank line arrived. */
interface Head {
  command: string;
  headers: Map<string, string>;
  contentLength: number | null;
  /** Offset of the body from the frame's first byte. */
  bodyStart: number;
}

export class StompParser {
  /** Escaping mode: a 1.0 session's headers are taken literally. */
  version: StompVersion = '1.2';

  // Unconsumed bytes are buf[start, end). Everything below is relative to `start`, the first
  // byte of the frame in progress, so compacting the buffer moves nothing.
  private buf: Buffer | null = null;
  private start = 0;
  private end = 0;
  private lineStart = 0;
  private scanned = 0;
  /** The head's lines so far as start, end pairs, flat and reused: no array per line or frame. */
  private readonly lines: number[] = [];
  /** A backslash was seen in the head being read: only then are its headers unescaped. */
  private backslash = false;
  private head: Head | null = null;
  private failure: StompParseError | null = null;

  constructor(private readonly limits: ParserLimits = DEFAULT_LIMITS) {}

  /** True while input is buffered: part of a frame, or frames not pulled yet. */
  get midFrame(): boolean {
    return this.end > this.start;
  }

  /** Bytes of input buffered and not yet parsed into frames. */
  get buffered(): number {
    return this.end - this.start;
  }

  /**
   * Takes the chunk (copying what is left of it unparsed) and parses at most `maxFrames` frames
   * of the input.
   */
  push(chunk: Uint8Array, maxFrames = Infinity): ParseResult {
    const frames: Frame[] = [];
    if (this.failure) return { frames, error: this.failure };
    if (chunk.byteLength === 0) return this.pull(maxFrames);
    // Common case: nothing buffered, so read the chunk in place and copy only a leftover.
    let borrowed = false;
    if (this.end === this.start) {
      this.buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.start = 0;
      this.end = chunk.byteLength;
      borrowed = true;
    } else {
      this.append(chunk);
    }
    const error = this.parse(frames, maxFrames);
    if (error) return { frames, error };
    if (this.end === this.start) {
      this.buf = null; // an idle connection holds no buffer
      this.start = this.end = 0;
    } else if (borrowed) {
      const rest = Buffer.allocUnsafe(Math.max(1024, this.end - this.start));
      this.buf!.copy(rest, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
      this.buf = rest;
    }
    return { frames, error: null };
  }

  /** Parses at most `maxFrames` more frames of the buffered input. */
  pull(maxFrames = Infinity): ParseResult {
    const frames: Frame[] = [];
    if (this.failure) return { frames, error: this.failure };
    if (this.end === this.start) return { frames, error: null };
    const error = this.parse(frames, maxFrames);
    if (error) return { frames, error };
    if (this.end === this.start) {
      this.buf = null;
      this.start = this.end = 0;
    }
    return { frames, error: null };
  }

  private parse(frames: Frame[], maxFrames: number): StompParseError | null {
    try {
      this.run(frames, maxFrames);
      return null;
    } catch (err) {
      if (!(err instanceof StompParseError)) throw err;
      this.failure = err;
      this.buf = null;
      this.start = this.end = 0;
      return err;
    }
  }

  private append(chunk: Uint8Array): void {
    const buf = this.buf!;
    const live = this.end - this.start;
    if (buf.length - this.end < chunk.byteLength) {
      const needed = live + chunk.byteLength;
      if (needed <= buf.length) {
        buf.copyWithin(0, this.start, this.end);
      } else {
        const grown = Buffer.allocUnsafe(Math.max(needed, buf.length * 2));
        buf.copy(grown, 0, this.start, this.end);
        this.buf = grown;
      }
      this.start = 0;
      this.end = live;
    }
    this.buf!.set(chunk, this.end);
    this.end += chunk.byteLength;
  }

  private run(frames: Frame[], maxFrames: number): void {
    while (frames.length < maxFrames) {
      if (!this.head) {
        if (this.lines.length === 0 && this.scanned === 0 && !this.skipHeartbeats()) return;
        if (!this.readHead()) return;
      }
      const f = this.readBody();
      if (!f) return;
      frames.push(f);
    }
  }

  /** Drops EOLs before a frame; false when nothing but EOLs (or half of a CR LF) is left. */
  private skipHeartbeats(): boolean {
    const buf = this.buf!;
    while (this.start < this.end) {
      const b = buf[this.start];
      if (b === LF) this.start++;
      else if (b === CR) {
        if (this.start + 1 >= this.end) return false;
        if (buf[this.start + 1] !== LF) throw new StompParseError('CR not followed by LF between frames');
        this.start += 2;
      } else return true;
    }
    return false;
  }

  /** Scans for the blank line ending the head; true once the head is parsed. */
  private readHead(): boolean {
    const buf = this.buf!;
    const { maxFrameBytes, maxHeaderLineBytes, maxHeaders } = this.limits;
    const avail = this.end - this.start;
    for (let i = this.scanned; i < avail; i++) {
      const b = buf[this.start + i];
      if (b === NUL) throw new StompParseError('NUL byte in the frame head');
      if (b !== LF) {
        if (b === BACKSLASH) this.backslash = true;
        continue;
      }
      let lineEnd = i;
      if (lineEnd > this.lineStart && buf[this.start + lineEnd - 1] === CR) lineEnd--;
      if (lineEnd - this.lineStart > maxHeaderLineBytes) {
        throw new StompParseError(`header line over ${maxHeaderLineBytes} bytes`, true);
      }
      if (lineEnd === this.lineStart && this.lines.length > 0) {
        this.parseHead(i + 1);
        return true;
      }
      this.lines.push(this.lineStart, lineEnd);
      if (this.lines.length / 2 - 1 > maxHeaders) throw new StompParseError(`more than ${maxHeaders} headers`, true);
      this.lineStart = i + 1;
    }
    this.scanned = avail;
    if (avail - this.lineStart > maxHeaderLineBytes) {
      throw new StompParseError(`header line over ${maxHeaderLineBytes} bytes`, true);
    }
    if (avail >= maxFrameBytes) throw new StompParseError(`frame over ${maxFrameBytes} bytes`, true);
    return false;
  }

  private parseHead(bodyStart: number): void {
    const buf = this.buf!;
    const at = this.start;
    const lines = this.lines;
    const c0 = lines[0];
    const c1 = lines[1];
    const command = text(buf, at + c0, at + c1);
    const unescape = this.backslash && escapesHeaders(command, this.version);
    const headers = new Map<string, string>();
    for (let n = 2; n < lines.length; n += 2) {
      const s = lines[n];
      const e = lines[n + 1];
      const colon = buf.indexOf(COLON, at + s);
      if (colon < 0 || colon >= at + e) throw new StompParseError('header line without a colon');
      if (colon === at + s) throw new StompParseError('header with an empty name');
      let name = text(buf, at + s, colon);
      let value = text(buf, colon + 1, at + e);
      if (unescape) {
        name = unescapeStrict(name);
        value = unescapeStrict(value);
      }
      if (!headers.has(name)) headers.set(name, value);
    }
    let contentLength: number | null = null;
    const declared = headers.get('content-length');
    if (declared !== undefined) {
      if (!DIGITS.test(declared)) throw new StompParseError('content-length is not a non-negative integer');
      contentLength = Number(declared);
      if (bodyStart + contentLength + 1 > this.limits.maxFrameBytes) {
        throw new StompParseError(`frame over ${this.limits.maxFrameBytes} bytes`, true);
      }
    }
    this.head = { command, headers, contentLength, bodyStart };
    this.scanned = bodyStart;
  }

  /** The frame once its body and NUL are in; null while waiting for more bytes. */
  private readBody(): Frame | null {
    const head = this.head!;
    const buf = this.buf!;
    const avail = this.end - this.start;
    let bodyEnd: number;
    if (head.contentLength !== null) {
      bodyEnd = head.bodyStart + head.contentLength;
      if (avail <= bodyEnd) return null;
      if (buf[this.start + bodyEnd] !== NUL) throw new StompParseError('frame body not followed by NUL');
    } else {
      const nul = buf.indexOf(NUL, this.start + this.scanned);
      if (nul < 0 || nul >= this.end) {
        this.scanned = avail;
        if (avail >= this.limits.maxFrameBytes) throw new StompParseError(`frame over ${this.limits.maxFrameBytes} bytes`, true);
        return null;
      }
      bodyEnd = nul - this.start;
      if (bodyEnd + 1 > this.limits.maxFrameBytes) throw new StompParseError(`frame over ${this.limits.maxFrameBytes} bytes`, true);
    }
    // The bytes may belong to a chunk uWS reuses after the callback: the body is copied out.
    // An empty body (ACK, SUBSCRIBE …) is one shared empty buffer: no allocation per frame.
    const body = bodyEnd === head.bodyStart ? EMPTY_BODY : Buffer.from(buf.subarray(this.start + head.bodyStart, this.start + bodyEnd));
    this.start += bodyEnd + 1;
    this.head = null;
    this.lines.length = 0;
    this.lineStart = 0;
    this.scanned = 0;
    this.backslash = false;
    return { command: head.command, headers: head.headers, body };
  }
}

/**
 * Where the first `count` frames of `bytes` end, when it holds more than `count` whole frames
 * (read from a frame boundary); -1 when it holds no more than that, or something the parser would
 * refuse or this skim cannot judge comes first. It only finds boundaries, builds nothing (a few
 * microseconds for a 2000-frame budget), and finds them exactly where the parser would: a session
 * over its frame budget copies only the frames the budget allows and drops the rest of a packed
 * message without copying it (docs/architecture.md §3a).
 */
export function endOfFrames(bytes: Uint8Array, count: number, limits: ParserLimits = DEFAULT_LIMITS): number {
  const end = bytes.length;
  let at = 0;
  /** Where the count-th frame ends, once found. */
  let cut = 0;
  for (let found = 0; ; found++) {
    // Heart-beats between frames.
    while (at < end && (bytes[at] === LF || (bytes[at] === CR && bytes[at + 1] === LF))) at += bytes[at] === LF ? 1 : 2;
    if (at >= end || bytes[at] === CR) return -1;
    const frameStart = at;
    const headLimit = Math.min(end, frameStart + limits.maxFrameBytes);
    let contentLength = -1;
    let lines = 0;
    let lineStart = at;
    let bodyStart = -1;
    // The head, byte by byte as the parser reads it: lines up to the first blank one after the command.
    for (let i = at; bodyStart < 0; i++) {
      if (i >= headLimit) return -1;
      const b = bytes[i];
      if (b === NUL) return -1;
      if (b !== LF) continue;
      const lineEnd = i > lineStart && bytes[i - 1] === CR ? i - 1 : i;
      if (lineEnd - lineStart > limits.maxHeaderLineBytes) return -1;
      if (lineEnd === lineStart && lines > 0) bodyStart = i + 1;
      else {
        if (lines > 0 && contentLength === -1 && startsWithContentLength(bytes, lineStart, lineEnd)) {
          contentLength = parseLength(bytes, lineStart + CONTENT_LENGTH.length, lineEnd);
          if (contentLength < 0) return -1;
        }
        if (++lines - 1 > limits.maxHeaders) return -1;
      }
      lineStart = i + 1;
    }
    let nul: number;
    if (contentLength >= 0) {
      nul = bodyStart + contentLength;
      if (nul >= end || bytes[nul] !== NUL) return -1;
    } else {
      // A loop, not indexOf: a call per frame costs more than the few bytes of a small body.
      nul = bodyStart;
      const bodyLimit = Math.min(end, frameStart + limits.maxFrameBytes);
      while (nul < bodyLimit && bytes[nul] !== NUL) nul++;
      if (nul >= bodyLimit) return -1;
    }
    if (nul + 1 - frameStart > limits.maxFrameBytes) return -1;
    at = nul + 1;
    if (found === count) return cut;
    if (found + 1 === count) cut = at;
  }
}

const CONTENT_LENGTH = Buffer.from('content-length:');

/** The first header named content-length (the parser keeps the first of a name; escapes cannot spell it). */
function startsWithContentLength(bytes: Uint8Array, from: number, lineEnd: number): boolean {
  if (lineEnd - from < CONTENT_LENGTH.length) return false;
  for (let i = 0; i < CONTENT_LENGTH.length; i++) if (bytes[from + i] !== CONTENT_LENGTH[i]) return false;
  return true;
}

/** A content-length value as the parser accepts it (1 to 10 digits), or -1. */
function parseLength(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 10) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = bytes[i] - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/**
 * Commands and header names every client sends, by length: matched byte by byte and answered
 * with the one string, where decoding made a new one each time (a native call: a fifth of the
 * parse of a packed ACK).
 */
const KNOWN: Array<Array<[Buffer, string]>> = [];
for (const word of [
  'CONNECT', 'STOMP', 'SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT',
  'id', 'ack', 'receipt', 'destination', 'subscription', 'transaction', 'message-id', 'content-length', 'content-type',
  'accept-version', 'heart-beat', 'host', 'login', 'passcode',
]) {
  (KNOWN[word.length] ??= []).push([Buffer.from(word), word]);
}

/** The bytes as a string: a known word without decoding, one ASCII character from V8's cache. */
function text(buf: Buffer, from: number, to: number): string {
  const length = to - from;
  if (length === 1 && buf[from] < 0x80) return String.fromCharCode(buf[from]);
  const candidates = KNOWN[length];
  if (candidates) {
    for (const [bytes, word] of candidates) {
      let i = 0;
      while (i < length && buf[from + i] === bytes[i]) i++;
      if (i === length) return word;
    }
  }
  return buf.toString('utf8', from, to);
}

function unescapeStrict(text: string): string {
  const out = unescapeHeader(text);
  if (out === null) throw new StompParseError('undefined escape sequence in a header');
  return out;
}
