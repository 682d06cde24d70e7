import { expect } from 'chai';
import { encodeFrame, FrameReader, type StompFrame } from '../../../src/load/stomp-frames';

function readAll(chunks: (string | Buffer)[]): StompFrame[] {
  const reader = new FrameReader();
  const frames: StompFrame[] = [];
  for (const c of chunks) reader.push(typeof c === 'string' ? Buffer.from(c) : c, (f) => frames.push(f));
  return frames;
}

describe('load driver STOMP frames', () => {
  it('round-trips a SEND with escaped header values and a UTF-8 body', () => {
    const text = encodeFrame('SEND', { destination: '/topic/a', note: 'a:b\nc\\d' }, '{"content":"안녕"}');
    const [frame] = readAll([text]);
    expect(frame).to.deep.equal({ command: 'SEND', headers: { destination: '/topic/a', note: 'a:b\nc\\d' }, body: '{"content":"안녕"}' });
  });

  it('splits several frames and heart-beats in one message, and joins a frame split across messages', () => {
    const a = encodeFrame('MESSAGE', { subscription: 'sub-0' }, 'one');
    const b = encodeFrame('RECEIPT', { 'receipt-id': 'm7' });
    const bytes = Buffer.from(`\n${a}\n${b}\r\n${a}`);
    const frames = readAll([bytes.subarray(0, 10), bytes.subarray(10, 30), bytes.subarray(30)]);
    expect(frames.map((f) => f.command)).to.deep.equal(['MESSAGE', 'RECEIPT', 'MESSAGE']);
    expect(frames[1].headers['receipt-id']).to.equal('m7');
    expect(frames[2].body).to.equal('one');
  });

  it('reads a body by content-length even when it holds NUL bytes and multi-byte characters', () => {
    const body = Buffer.from('가\0나');
    const head = Buffer.from(`MESSAGE\ncontent-length:${body.length}\r\n\r\n`);
    const frames = readAll([Buffer.concat([head, body.subarray(0, 2)]), Buffer.concat([body.subarray(2), Buffer.from('\0')])]);
    expect(frames).to.have.length(1);
    expect(frames[0].body).to.equal('가\0나');
  });

  it('keeps the first of repeated headers, as STOMP 1.2 says', () => {
    const [frame] = readAll(['MESSAGE\nfoo:1\nfoo:2\n\n\0']);
    expect(frame.headers.foo).to.equal('1');
  });
});
