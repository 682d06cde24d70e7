import { expect } from 'chai';
import { describeError, isUnreachable } from '../../../src/shared/outcome';

describe('harness errors', () => {
  it("names the socket error behind fetch's bare \"fetch failed\"", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeError(new TypeError('fetch failed', { cause: refused }))).to.equal('connect ECONNREFUSED 127.0.0.1:1');
    expect(isUnreachable(new TypeError('fetch failed', { cause: refused }))).to.equal(true);
  });

  it('lists each address tried when a connect to several failed', () => {
    const both = new AggregateError([new Error('connect ECONNREFUSED ::1:1'), new Error('connect ECONNREFUSED 127.0.0.1:1')]);
    expect(describeError(new TypeError('fetch failed', { cause: both }))).to.equal('connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1');
  });

  it('keeps a message that already says it, and a plain one as it is', () => {
    expect(describeError(new Error('login a@b.c: HTTP 401'))).to.equal('login a@b.c: HTTP 401');
    expect(describeError('text')).to.equal('text');
  });
});
