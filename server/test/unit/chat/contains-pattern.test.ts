import { expect } from 'chai';
import { containsPattern } from '../../../src/features/accounts/users-repository';

describe('containsPattern', () => {
  it('wraps the keyword in % and escapes %, _ and the escape character itself', () => {
    expect(containsPattern('kim')).to.equal('%kim%');
    expect(containsPattern('50%_off!')).to.equal('%50!%!_off!!%');
  });
});
