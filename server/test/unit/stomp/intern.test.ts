// The shared copies of subscription ids: equal text in, one string out, never an unbounded table.
import { expect } from 'chai';
import { intern } from '../../../src/stomp/intern';

describe('interning subscription ids', () => {
  it('returns the same text it was given', () => {
    for (const id of ['sub-0', '', 'a\\cb', 'x'.repeat(80), '구독-1']) expect(intern(id)).to.equal(id);
  });

  it('keeps working past its bound: every id still comes back equal', () => {
    for (let i = 0; i < 10_000; i++) expect(intern(`made-up-${i}`)).to.equal(`made-up-${i}`);
    expect(intern('sub-0')).to.equal('sub-0');
  });
});
