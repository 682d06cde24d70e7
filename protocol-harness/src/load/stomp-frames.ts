// STOMP 1.2 frames for the load driver: encode one frame, and split a byte stream into frames.
// The driver keeps thousands of sessions busy from one process, so it speaks the wire format
// directly instead of running a full client library (and its timers) per session.

export interface StompFrame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

const NUL = 0;
const LF = 10;
const CR = 13;
const DIGITS = /^[0-9]+$/;

function escapeHeader(value: string): string {
  return value.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

function unescapeHeader(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'c' ? ':' : c));
}

/** One frame as text. CONNECT headers are not escaped (STOMP 1.2 §Value Encoding). */
export function encodeFrame(command: string, headers: Record<string, string>, body = ''): string {
  const escape = command === 'CONNECT' || command === 'CONNECTED' ? (v: string) => v : escapeHeader;
  let out = command + '\n';
  for (const key in headers) out += `${escape(key)}:${escape(headers[key])}\n`;
  return out + '\n' + body + '\0';
}

/**
 * Splits incoming bytes into frames. A frame may span WebSocket messages and one message may
 * carry several frames or heart-beat end-of-lines, so leftovers are kept until completed.
 */
export class FrameReader {
  private pending: Buffer | null = null;

  push(chunk: Buffer, onFrame: (frame: StompFrame) => void): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let pos = 0;
    for (;;) {
      // Heart-beats and the optional EOLs after a frame's NUL.
      while (pos < buf.length && (buf[pos] === LF || buf[pos] === CR)) pos++;
      if (pos >= buf.length) return;
      const headerEnd = findHeaderEnd(buf, pos);
      if (headerEnd < 0) break;
      // Lines found with indexOf, not split and a regex per line: every delivery of every session passes here.
      const head = buf.toString('utf8', pos, headerEnd);
      let lineEnd = head.indexOf('\n');
      if (lineEnd < 0) lineEnd = head.length;
      const command = withoutCr(head, 0, lineEnd);
      const headers: Record<string, string> = {};
      const raw = command === 'CONNECTED';
      for (let start = lineEnd + 1; start < head.length; start = lineEnd + 1) {
        lineEnd = head.indexOf('\n', start);
        if (lineEnd < 0) lineEnd = head.length;
        const line = withoutCr(head, start, lineEnd);
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const key = raw ? line.slice(0, colon) : unescapeHeader(line.slice(0, colon));
        // STOMP 1.2: when a header repeats, the first occurrence wins.
        if (!(key in headers)) headers[key] = raw ? line.slice(colon + 1) : unescapeHeader(line.slice(colon + 1));
      }
      const start = bodyStartAfter(buf, headerEnd);
      let end: number;
      const length = headers['content-length'];
      if (length !== undefined && DIGITS.test(length)) {
        end = start + Number(length);
        if (end >= buf.length) break;
      } else {
        end = buf.indexOf(NUL, start);
        if (end < 0) break;
      }
      onFrame({ command, headers, body: buf.toString('utf8', start, end) });
      pos = end + 1;
    }
    // Copied: the chunk's memory belongs to the socket and may be reused.
    if (pos < buf.length) this.pending = Buffer.from(buf.subarray(pos));
  }
}

/** The line from `start` to `end` without the CR of a CRLF ending. */
function withoutCr(text: string, start: number, end: number): string {
  return text.slice(start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end);
}

/** Index of the EOL ending the last header line (a blank line follows), or -1 if not yet received. */
function findHeaderEnd(buf: Buffer, from: number): number {
  let i = buf.indexOf(LF, from);
  while (i >= 0 && i + 1 < buf.length) {
    if (buf[i + 1] === LF) return i;
    if (buf[i + 1] === CR && i + 2 < buf.length && buf[i + 2] === LF) return i;
    i = buf.indexOf(LF, i + 1);
  }
  return -1;
}

function bodyStartAfter(buf: Buffer, headerEnd: number): number {
  return buf[headerEnd + 1] === LF ? headerEnd + 2 : headerEnd + 3;
}
