// The shared copies of subscription ids: equal text in, one stored string out, never an
// unbounded table.
import { expect } from 'chai';
import { Interner } from '../../../src/stomp/intern';

describe('interning subscription ids', () => {
  it('returns the same text it was given', () => {
    const interner = new Interner();
    for (const id of ['sub-0', '', 'a\\cb', 'x'.repeat(80), '구독-1']) expect(interner.intern(id)).to.equal(id);
  });

  it('holds each distinct short string once, however often it is asked for', () => {
    const interner = new Interner();
    // Built at run time, so each call passes a different string object with the same text.
    for (let i = 0; i < 100; i++) interner.intern(['sub', String(i % 3)].join('-'));
    expect(interner.size).to.equal(3);
  });

  it('does not keep strings over its length limit', () => {
    const interner = new Interner(8, 100);
    interner.intern('x'.repeat(9));
    expect(interner.size).to.equal(0);
  });

  it('starts afresh when full, so made-up ids cannot grow it, and keeps working', () => {
    const interner = new Interner(64, 100);
    for (let i = 0; i < 10_000; i++) expect(interner.intern(`made-up-${i}`)).to.equal(`made-up-${i}`);
    expect(interner.size).to.be.at.most(100);
    expect(interner.intern('sub-0')).to.equal('sub-0');
  });
});
