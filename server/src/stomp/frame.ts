// STOMP frames and their serialisation (STOMP 1.2 "Frames and Headers", "Value Encoding").
// Pure: no I/O. The parser is in parser.ts; parse(serialize(frame)) returns the frame.

/** A decoded frame. Header order is kept; a repeated header keeps its first value. */
export interface Frame {
  command: string;
  headers: Map<string, string>;
  body: Buffer;
}

/** Frames whose headers are never escaped (STOMP 1.2: "except for the CONNECT and CONNECTED frames"). */
export function escapesHeaders(command: string, version: StompVersion = '1.2'): boolean {
  return version !== '1.0' && command !== 'CONNECT' && command !== 'CONNECTED';
}

export type StompVersion = '1.0' | '1.1' | '1.2';

export const CLIENT_COMMANDS = new Set([
  'CONNECT', 'STOMP', 'SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT',
]);

const NEEDS_ESCAPE = /[\\\r\n:]/;

/** Escapes a header name or value: \ → \\, CR → \r, LF → \n, : → \c. */
export function escapeHeader(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  let out = '';
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\n') out += '\\n';
    else if (ch === ':') out += '\\c';
    else out += ch;
  }
  return out;
}

/** Reverses escapeHeader; null for an undefined escape sequence (a fatal protocol error). */
export function unescapeHeader(text: string): string | null {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = text[++i];
    if (next === '\\') out += '\\';
    else if (next === 'r') out += '\r';
    else if (next === 'n') out += '\n';
    else if (next === 'c') out += ':';
    else return null;
  }
  return out;
}

export function frame(command: string, headers: Record<string, string> | Map<string, string> = {}, body: Buffer | string = ''): Frame {
  return {
    command,
    headers: headers instanceof Map ? headers : new Map(Object.entries(headers)),
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  };
}

/**
 * The frame's bytes. Headers are written as given: a body containing NUL needs a
 * content-length header, which the caller adds (the broker always does).
 */
export function serialize(f: Frame, version: StompVersion = '1.2'): Buffer {
  const escape = escapesHeaders(f.command, version);
  let head = f.command + '\n';
  for (const [name, value] of f.headers) {
    head += escape ? `${escapeHeader(name)}:${escapeHeader(value)}\n` : `${name}:${value}\n`;
  }
  head += '\n';
  const headBytes = Buffer.byteLength(head);
  const out = Buffer.allocUnsafe(headBytes + f.body.length + 1);
  out.write(head, 0, 'utf8');
  f.body.copy(out, headBytes);
  out[out.length - 1] = 0;
  return out;
}
