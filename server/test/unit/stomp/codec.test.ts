// The STOMP codec against the text of the STOMP 1.2 specification, then by properties.
import { expect } from 'chai';
import fc from 'fast-check';
import { escapeHeader, frame, serialize, unescapeHeader, type Frame } from '../../../src/stomp/frame';
import { DEFAULT_LIMITS, endOfFrames, StompParseError, StompParser } from '../../../src/stomp/parser';

function parseAll(bytes: Buffer | string, parser = new StompParser()) {
  return parser.push(typeof bytes === 'string' ? Buffer.from(bytes, 'binary') : bytes);
}

function only(bytes: Buffer | string): Frame {
  const { frames, error } = parseAll(bytes);
  expect(error, error?.message).to.equal(null);
  expect(frames).to.have.length(1);
  return frames[0];
}

function failure(bytes: Buffer | string): StompParseError {
  const { error } = parseAll(bytes);
  expect(error).to.be.instanceOf(StompParseError);
  return error!;
}

const plain = (f: Frame) => ({ command: f.command, headers: [...f.headers], body: f.body.toString('binary') });

describe('the STOMP parser, by the specification text', () => {
  it('reads a command, headers and a NUL-terminated body', () => {
    const f = only('SEND\ndestination:/queue/a\ncontent-type:text/plain\n\nhello queue a\0');
    expect(plain(f)).to.deep.equal({
      command: 'SEND',
      headers: [['destination', '/queue/a'], ['content-type', 'text/plain']],
      body: 'hello queue a',
    });
  });

  it('accepts CR LF line ends as well as LF', () => {
    const f = only('SEND\r\ndestination:/queue/a\r\nreceipt:7\r\n\r\nbody\0');
    expect(plain(f).headers).to.deep.equal([['destination', '/queue/a'], ['receipt', '7']]);
    expect(plain(f).body).to.equal('body');
  });

  it('reads a content-length body that contains NUL bytes', () => {
    const f = only('SEND\ndestination:/a\ncontent-length:5\n\na\0b\0c\0');
    expect(plain(f).body).to.equal('a\0b\0c');
  });

  it('refuses a content-length body not followed by NUL', () => {
    expect(failure('SEND\ncontent-length:2\n\nabc\0').message).to.match(/NUL/);
  });

  it('refuses a content-length that is not a non-negative integer', () => {
    failure('SEND\ncontent-length:-1\n\n\0');
    failure('SEND\ncontent-length: 1\n\nx\0');
  });

  it('skips heart-beat EOLs before, between and after frames', () => {
    const { frames, error } = parseAll('\n\r\n\nSEND\na:1\n\n\0\n\r\n\nSEND\na:2\n\n\0\n\n');
    expect(error).to.equal(null);
    expect(frames.map((f) => f.headers.get('a'))).to.deep.equal(['1', '2']);
  });

  it('reads several frames from one chunk', () => {
    const { frames } = parseAll('BEGIN\ntransaction:t\n\n\0SEND\ntransaction:t\ndestination:/app/x\n\n{}\0COMMIT\ntransaction:t\n\n\0');
    expect(frames.map((f) => f.command)).to.deep.equal(['BEGIN', 'SEND', 'COMMIT']);
  });

  it('decodes the escapes \\r \\n \\c \\\\ in header names and values', () => {
    const f = only('MESSAGE\nfoo\\cbar:a\\nb\\rc\\\\d\\ce\n\n\0');
    expect(plain(f).headers).to.deep.equal([['foo:bar', 'a\nb\rc\\d:e']]);
  });

  it('treats an undefined escape sequence as a fatal error', () => {
    expect(failure('SEND\ndestination:/a\\t\n\n\0').message).to.match(/escape/);
    failure('SEND\ndestination:/a\\\n\n\0');
  });

  it('does not unescape CONNECT headers', () => {
    const f = only('CONNECT\nlogin:a\\tb\npasscode:x\\c\n\n\0');
    expect(f.headers.get('login')).to.equal('a\\tb');
    expect(f.headers.get('passcode')).to.equal('x\\c');
  });

  it('takes headers literally for a STOMP 1.0 session', () => {
    const parser = new StompParser();
    parser.version = '1.0';
    const { frames } = parser.push(Buffer.from('SEND\ndestination:/a\\t\n\n\0'));
    expect(frames[0].headers.get('destination')).to.equal('/a\\t');
  });

  it('keeps the first of repeated headers', () => {
    const f = only('MESSAGE\nfoo:World\nfoo:Hello\n\n\0');
    expect(plain(f).headers).to.deep.equal([['foo', 'World']]);
  });

  it('does not trim header values or names', () => {
    const f = only('SEND\n key : value \n\n\0');
    expect(plain(f).headers).to.deep.equal([[' key ', ' value ']]);
  });

  it('keeps colons after the first one in a value', () => {
    expect(only('CONNECT\nhost:a:b\n\n\0').headers.get('host')).to.equal('a:b');
  });

  it('refuses a header line without a colon, or with an empty name', () => {
    failure('SEND\nnocolon\n\n\0');
    failure('SEND\n:value\n\n\0');
  });

  it('refuses a NUL byte in the head', () => {
    failure('SEND\nde\0stination:/a\n\n\0');
  });

  it('refuses a CR that does not start a CR LF between frames', () => {
    failure('\rSEND\n\n\0');
  });

  it('accepts a frame of exactly 64 KiB and refuses one byte more', () => {
    const head = 'SEND\ndestination:/a\n\n';
    const fits = head + 'x'.repeat(DEFAULT_LIMITS.maxFrameBytes - head.length - 1) + '\0';
    expect(only(fits).body.length).to.equal(DEFAULT_LIMITS.maxFrameBytes - head.length - 1);
    const over = head + 'x'.repeat(DEFAULT_LIMITS.maxFrameBytes - head.length) + '\0';
    expect(failure(over).limit).to.equal(true);
  });

  it('refuses a content-length over the frame limit before the body arrives', () => {
    const err = new StompParser().push(Buffer.from(`SEND\ncontent-length:${DEFAULT_LIMITS.maxFrameBytes}\n\n`)).error;
    expect(err?.limit).to.equal(true);
  });

  it('refuses an unterminated frame as soon as it passes the limit', () => {
    const parser = new StompParser();
    expect(parser.push(Buffer.from('SEND\n\n')).error).to.equal(null);
    expect(parser.push(Buffer.alloc(DEFAULT_LIMITS.maxFrameBytes, 0x61)).error?.limit).to.equal(true);
  });

  it('accepts 100 headers and refuses 101', () => {
    const headers = (n: number) => Array.from({ length: n }, (_, i) => `h${i}:v\n`).join('');
    expect(only(`SEND\n${headers(100)}\n\0`).headers.size).to.equal(100);
    expect(failure(`SEND\n${headers(101)}\n\0`).limit).to.equal(true);
  });

  it('accepts an 8 KiB header line and refuses a longer one, even before its EOL arrives', () => {
    const line = (n: number) => 'a:' + 'v'.repeat(n - 2);
    expect(only(`SEND\n${line(8192)}\n\n\0`).headers.get('a')).to.have.length(8190);
    expect(failure(`SEND\n${line(8193)}\n\n\0`).limit).to.equal(true);
    expect(new StompParser().push(Buffer.from(`SEND\n${line(8193)}`)).error?.limit).to.equal(true);
  });

  it('accepts nothing after an error', () => {
    const parser = new StompParser();
    expect(parser.push(Buffer.from('SEND\nbad\n\n\0')).error).to.be.instanceOf(StompParseError);
    const again = parser.push(Buffer.from('SEND\n\n\0'));
    expect(again.frames).to.have.length(0);
    expect(again.error).to.be.instanceOf(StompParseError);
  });

  it('parses no more frames than asked, keeping the rest of the input unparsed until pulled', () => {
    const parser = new StompParser();
    const packed = Buffer.from(Array.from({ length: 1000 }, (_, i) => `ACK\nid:${i}\n\n\0`).join(''));
    const first = parser.push(packed, 10);
    expect(first.frames.map((f) => f.headers.get('id'))).to.deep.equal(Array.from({ length: 10 }, (_, i) => String(i)));
    expect(parser.buffered).to.equal(packed.length - packed.indexOf('ACK\nid:10\n'));
    // The rest was copied: the caller may reuse the chunk's memory.
    packed.fill(0);
    expect(parser.pull(0).frames).to.have.length(0);
    const rest = parser.pull();
    expect(rest.error).to.equal(null);
    expect(rest.frames.map((f) => f.headers.get('id'))).to.deep.equal(Array.from({ length: 990 }, (_, i) => String(i + 10)));
    expect(parser.buffered).to.equal(0);
  });

  it('returns the frames before an error together with the error', () => {
    const { frames, error } = parseAll('SEND\na:1\n\n\0SEND\nbad\n\n\0');
    expect(frames).to.have.length(1);
    expect(error).to.be.instanceOf(StompParseError);
  });
});

describe('the STOMP serializer', () => {
  it('escapes headers except in CONNECT and CONNECTED', () => {
    expect(serialize(frame('MESSAGE', { 'a:b': 'c\nd\\' })).toString()).to.equal('MESSAGE\na\\cb:c\\nd\\\\\n\n\0');
    expect(serialize(frame('CONNECTED', { version: '1.2' })).toString()).to.equal('CONNECTED\nversion:1.2\n\n\0');
  });

  it('writes 1.0 headers literally', () => {
    expect(serialize(frame('MESSAGE', { a: 'x:y' }), '1.0').toString()).to.equal('MESSAGE\na:x:y\n\n\0');
  });

  it('escapes and unescapes as inverses', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => unescapeHeader(escapeHeader(s)) === s));
  });
});

// ---- properties ----

const ESCAPED_COMMANDS = ['SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT', 'MESSAGE', 'RECEIPT', 'ERROR'];
// NUL has no escape and is refused in a frame's head.
const headerText = fc.string({ unit: 'binary', maxLength: 30 }).map((s) => s.replace(/\0/g, '_'));
const literalText = fc.string({ unit: 'binary', maxLength: 30 }).map((s) => s.replace(/[\r\n:\0]/g, '_'));

const anyFrame: fc.Arbitrary<Frame> = fc
  .record({
    literal: fc.boolean(),
    escapedCommand: fc.constantFrom(...ESCAPED_COMMANDS),
    literalCommand: fc.constantFrom('CONNECT', 'CONNECTED'),
    names: fc.uniqueArray(fc.tuple(headerText.filter((s) => s.length > 0), headerText), { maxLength: 8, selector: (t) => t[0] }),
    literalNames: fc.uniqueArray(fc.tuple(literalText.filter((s) => s.length > 0), literalText), { maxLength: 8, selector: (t) => t[0] }),
    body: fc.uint8Array({ maxLength: 200 }),
    withLength: fc.boolean(),
  })
  .map(({ literal, escapedCommand, literalCommand, names, literalNames, body, withLength }) => {
    const headers = new Map((literal ? literalNames : names).filter(([n]) => n !== 'content-length'));
    let bytes = Buffer.from(body);
    if (withLength) headers.set('content-length', String(bytes.length));
    else bytes = Buffer.from(bytes.filter((b) => b !== 0));
    return { command: literal ? literalCommand : escapedCommand, headers, body: bytes };
  });

describe('the STOMP codec, by property', () => {
  it('parse(serialize(frame)) returns the frame', () => {
    fc.assert(
      fc.property(anyFrame, (f) => {
        expect(plain(only(serialize(f)))).to.deep.equal(plain(f));
      }),
      { numRuns: 500 },
    );
  });

  it('parses the same frames however the bytes are split into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(anyFrame, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom('', '\n', '\r\n'), { minLength: 4, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (frames, eols, cuts) => {
          const bytes = Buffer.concat(frames.map((f, i) => Buffer.concat([serialize(f), Buffer.from(eols[i])])));
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const parser = new StompParser();
          const out: Frame[] = [];
          let from = 0;
          for (const to of [...points, bytes.length]) {
            const r = parser.push(bytes.subarray(from, to));
            expect(r.error).to.equal(null);
            out.push(...r.frames);
            from = to;
          }
          expect(out.map(plain)).to.deep.equal(frames.map(plain));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('parses the same frames when fed one byte at a time', () => {
    fc.assert(
      fc.property(fc.array(anyFrame, { minLength: 1, maxLength: 3 }), (frames) => {
        const bytes = Buffer.concat(frames.map((f) => serialize(f)));
        const parser = new StompParser();
        const out: Frame[] = [];
        for (let i = 0; i < bytes.length; i++) out.push(...parser.push(bytes.subarray(i, i + 1)).frames);
        expect(out.map(plain)).to.deep.equal(frames.map(plain));
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on random bytes: it returns frames or a parse error', () => {
    const chunks = fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...['SEND\n', 'a:b\n', '\n', '\0', '\\', 'content-length:3\n', '\r\n'].map((s) => new Uint8Array(Buffer.from(s))))), { maxLength: 40 });
    fc.assert(
      fc.property(chunks, (parts) => {
        const parser = new StompParser();
        for (const part of parts) {
          const r = parser.push(part);
          if (r.error) expect(r.error).to.be.instanceOf(StompParseError);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('finds where the first k frames end exactly where the parser ends them, and -1 when no more than k are there', () => {
    fc.assert(
      fc.property(
        fc.array(anyFrame, { minLength: 1, maxLength: 5 }),
        fc.array(fc.constantFrom('', '\n', '\r\n', '\n\n'), { minLength: 5, maxLength: 5 }),
        (frames, eols) => {
          const parts = frames.map((f, i) => Buffer.concat([serialize(f), Buffer.from(eols[i])]));
          const bytes = Buffer.concat(parts);
          let end = 0;
          for (let k = 0; k <= frames.length; k++) {
            expect(endOfFrames(bytes, k)).to.equal(k < frames.length ? end : -1);
            if (k < frames.length) end += parts[k].length - eols[k].length + (k > 0 ? eols[k - 1].length : 0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on any bytes, a cut where it says k frames end keeps those k frames as they were, and more follow', () => {
    const pieces = ['SEND\n', 'ACK\nid:a\n\n\0', 'a:b\n', '\n', '\0', '\r', '\r\n', 'content-length:3\n', 'content-length:x\n', '\\'];
    const chunks = fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(...pieces.map((s) => new Uint8Array(Buffer.from(s))))), { maxLength: 40 });
    fc.assert(
      fc.property(chunks, fc.nat({ max: 6 }), (parts, k) => {
        const bytes = Buffer.concat(parts);
        const cut = endOfFrames(bytes, k);
        if (cut < 0) return;
        const whole = new StompParser().push(bytes);
        const prefix = new StompParser().push(bytes.subarray(0, cut));
        // A frame it counted may break a rule it does not check (a header without a colon): the
        // parser then refuses it the same way in the cut input.
        if (whole.frames.length < k) {
          expect(prefix.error?.message).to.equal(whole.error!.message);
          expect(prefix.frames.map(plain)).to.deep.equal(whole.frames.map(plain));
          return;
        }
        expect(prefix.error).to.equal(null);
        expect(prefix.frames.map(plain)).to.deep.equal(whole.frames.slice(0, k).map(plain));
        // The input held more than k: a frame more, or the error the parser would answer.
        expect(whole.frames.length > k || whole.error !== null).to.equal(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('does not count a packed message past the budget, nor frames over the limits', () => {
    const packed = Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'.repeat(49_900));
    expect(endOfFrames(packed, 2000)).to.equal(2000 * 21);
    expect(endOfFrames(packed, 49_900)).to.equal(-1);
    const big = Buffer.from(`SEND\n\n${'x'.repeat(DEFAULT_LIMITS.maxFrameBytes)}\0ACK\nid:a\n\n\0`);
    expect(endOfFrames(big, 1)).to.equal(-1);
    expect(endOfFrames(Buffer.from('ACK\nid:a\n\n\0\rACK\nid:a\n\n\0'), 1)).to.equal(-1);
  });
});
