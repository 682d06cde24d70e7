import { expect } from 'chai';
import { answerRange } from '../../../src/transport/range';

describe('answering a Range request', () => {
  const size = 1000;
  const etag = '"a7"';
  const answer = (range: string | undefined, ifRange?: string) => answerRange(range, ifRange, size, etag);

  it('gives one satisfiable range as that part, cut at the end of the body', () => {
    expect(answer('bytes=0-0')).to.deep.equal({ kind: 'part', start: 0, end: 0 });
    expect(answer('bytes=10-19')).to.deep.equal({ kind: 'part', start: 10, end: 19 });
    expect(answer('bytes=990-')).to.deep.equal({ kind: 'part', start: 990, end: 999 });
    expect(answer('bytes=990-5000')).to.deep.equal({ kind: 'part', start: 990, end: 999 });
    expect(answer('bytes=-10')).to.deep.equal({ kind: 'part', start: 990, end: 999 });
    expect(answer('bytes=-5000')).to.deep.equal({ kind: 'part', start: 0, end: 999 });
    expect(answer('Bytes = 5 - 6')).to.deep.equal({ kind: 'part', start: 5, end: 6 });
    expect(answer('bytes=999-99999999999999999999999')).to.deep.equal({ kind: 'part', start: 999, end: 999 });
  });

  it('finds a range that starts past the end, or the last zero bytes, unsatisfiable', () => {
    for (const range of ['bytes=1000-', 'bytes=1000-2000', 'bytes=-0', 'bytes=99999999999999999999999-']) {
      expect(answer(range), range).to.deep.equal({ kind: 'unsatisfiable' });
    }
    expect(answerRange('bytes=-5', undefined, 0, etag)).to.deep.equal({ kind: 'unsatisfiable' });
  });

  it('answers the whole body to no Range, another unit, a malformed or multi-part Range, or an If-Range that is not this body', () => {
    for (const range of [undefined, 'items=0-5', 'bytes=5-1', 'bytes=-', 'bytes=a-b', 'bytes=0-1,3-4', 'bytes=', '0-5']) {
      expect(answer(range), String(range)).to.deep.equal({ kind: 'whole' });
    }
    expect(answer('bytes=0-5', '"other"')).to.deep.equal({ kind: 'whole' });
    expect(answer('bytes=0-5', 'Wed, 21 Oct 2026 07:28:00 GMT')).to.deep.equal({ kind: 'whole' });
    expect(answerRange('bytes=0-5', '"a7"', size, undefined)).to.deep.equal({ kind: 'whole' });
    expect(answer('bytes=0-5', '"a7"')).to.deep.equal({ kind: 'part', start: 0, end: 5 });
  });
});
