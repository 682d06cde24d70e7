import { expect } from 'chai';
import { noneMatch } from '../../../src/transport/conditional';

describe('If-None-Match (conditional GET)', () => {
  it('matches the ETag among a list, weakly (W/ on either side), and * always', () => {
    expect(noneMatch('"a1"', '"a1"')).to.equal(true);
    expect(noneMatch('"x", W/"a1" ,"y"', '"a1"')).to.equal(true);
    expect(noneMatch('"a1"', 'W/"a1"')).to.equal(true);
    expect(noneMatch(' * ', '"a1"')).to.equal(true);
  });

  it('does not match another tag, no header, or a body without a validator', () => {
    expect(noneMatch('"a2"', '"a1"')).to.equal(false);
    expect(noneMatch('"a1', '"a1"')).to.equal(false);
    expect(noneMatch(undefined, '"a1"')).to.equal(false);
    expect(noneMatch('"a1"', undefined)).to.equal(false);
    expect(noneMatch('*', undefined)).to.equal(false);
  });
});
