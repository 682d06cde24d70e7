import { expect } from 'chai';
import { codeMatches, generateCode, hashCode, newSalt, parseCode } from '../../../src/features/accounts/verification-code';

describe('verification codes', () => {
  it('are six digits, leading zeros kept, and vary', () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    for (const code of codes) expect(code).to.match(/^\d{6}$/);
    expect(new Set(codes).size).to.be.greaterThan(1900);
    // Over 2000 draws, first digits cover 0-9 (a fixed or low-entropy source would not).
    expect(new Set(codes.map((c) => c[0])).size).to.equal(10);
  });

  it('match only the same code for the same address and salt', () => {
    const salt = newSalt();
    const stored = { salt, hash: hashCode(salt, 'a@example.test', '012345') };
    expect(codeMatches(stored, 'a@example.test', '012345')).to.equal(true);
    expect(codeMatches(stored, 'a@example.test', '012346')).to.equal(false);
    expect(codeMatches(stored, 'b@example.test', '012345')).to.equal(false);
    expect(codeMatches({ salt: newSalt(), hash: stored.hash }, 'a@example.test', '012345')).to.equal(false);
  });

  it('never store the code itself', () => {
    const salt = newSalt();
    expect(hashCode(salt, 'a@example.test', '654321')).to.match(/^[0-9a-f]{64}$/).and.not.contain('654321');
  });

  it('are read from a number (restoring lost leading zeros) or a six-digit string', () => {
    expect(parseCode(12345)).to.equal('012345');
    expect(parseCode(987654)).to.equal('987654');
    expect(parseCode(' 000001 ')).to.equal('000001');
    for (const bad of [1_000_000, -1, 1.5, '12345', '1234567', '12a456', null, undefined, {}, NaN]) expect(parseCode(bad), String(bad)).to.equal(null);
  });
});
