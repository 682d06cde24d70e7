import { expect } from 'chai';
import { isValidName } from '@common/rules';
import { codeChallengeS256 } from '../../../src/features/oauth/pkce';
import { ProfileError, displayName, googleProfile, kakaoProfile } from '../../../src/features/oauth/profiles';

describe('OAuth profiles', () => {
  it('read Google’s OIDC user info, lower-casing the address', () => {
    expect(googleProfile({ sub: '123', email: 'Ann@Gmail.test', email_verified: true, name: 'Ann' })).to.deep.equal({
      subject: '123',
      email: 'ann@gmail.test',
      emailVerified: true,
      name: 'Ann',
    });
    expect(googleProfile({ sub: '1', email: 'a@b.test', email_verified: 'true' }).emailVerified).to.equal(true);
    expect(googleProfile({ sub: '1', email: 'a@b.test' }).emailVerified).to.equal(false);
    expect(() => googleProfile({ email: 'a@b.test' })).to.throw(ProfileError);
  });

  it('read Kakao’s shape, where an address counts as verified only when both valid and verified', () => {
    const body = { id: 42, kakao_account: { email: 'k@kakao.test', is_email_verified: true, is_email_valid: true, profile: { nickname: '라이언' } } };
    expect(kakaoProfile(body)).to.deep.equal({ subject: '42', email: 'k@kakao.test', emailVerified: true, name: '라이언' });
    expect(kakaoProfile({ ...body, kakao_account: { ...body.kakao_account, is_email_valid: false } }).emailVerified).to.equal(false);
    expect(kakaoProfile({ id: 7 })).to.deep.equal({ subject: '7', email: null, emailVerified: false, name: null });
    expect(() => kakaoProfile({ kakao_account: {} })).to.throw(ProfileError);
    expect(() => kakaoProfile('nope')).to.throw(ProfileError);
  });

  it('turn any provider name into a display name our name rule accepts', () => {
    const cases: Array<[string | null, string | null, string]> = [
      ['Grace Hopper', 'g@x.test', 'Grace Hopper'],
      ['김 철수', null, '김 철수'],
      ['R2-D2 🤖', null, 'R-D'],
      ['12345', 'jane.doe@x.test', 'jane.doe'],
      [null, '1234@x.test', 'User'],
      ['  spaced   out  ', null, 'spaced out'],
      ['x'.repeat(150), null, 'x'.repeat(100)],
    ];
    for (const [name, email, expected] of cases) {
      const result = displayName({ name, email });
      expect(result, `${name} / ${email}`).to.equal(expected);
      expect(isValidName(result)).to.equal(true);
    }
  });

  it('derive the PKCE S256 challenge of RFC 7636’s example', () => {
    expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).to.equal('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
