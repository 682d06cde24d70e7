import { expect } from 'chai';
import { initialSignUpState, signUpActions, signUpReducer, type SignUpState, resendAvailableAt, SEND_WINDOW } from './signUpSlice';

const reduce = (...actions: Parameters<typeof signUpReducer>[1][]): SignUpState =>
  actions.reduce(signUpReducer, initialSignUpState);

describe('the sign-up reducer', () => {
  it('starts unverified, with nothing pending and no message', () => {
    expect(reduce()).to.deep.equal(initialSignUpState);
    expect(initialSignUpState.phase).to.equal('unverified');
  });

  it('moves to codeSent and remembers the address once a code was sent', () => {
    const state = reduce(signUpActions.requestStarted('send'), signUpActions.codeSent({ email: 'a@b.co', resent: false }));
    expect(state).to.include({ phase: 'codeSent', email: 'a@b.co', pending: null, message: 'codeSent', failed: false });
  });

  it('says the code was resent when it is sent again', () => {
    const state = reduce(
      signUpActions.codeSent({ email: 'a@b.co', resent: false }),
      signUpActions.codeSent({ email: 'a@b.co', resent: true }),
    );
    expect(state).to.include({ phase: 'codeSent', message: 'codeResent' });
  });

  it('moves to verified when the code is accepted', () => {
    const state = reduce(signUpActions.codeSent({ email: 'a@b.co', resent: false }), signUpActions.codeVerified());
    expect(state).to.include({ phase: 'verified', message: 'verified', failed: false });
  });

  it('stays in its phase on a failure and shows the failure', () => {
    const state = reduce(
      signUpActions.codeSent({ email: 'a@b.co', resent: false }),
      signUpActions.requestStarted('verify'),
      signUpActions.failed('wrongCode'),
    );
    expect(state).to.include({ phase: 'codeSent', pending: null, message: 'wrongCode', failed: true });
  });

  it('records the new account name on completion', () => {
    const state = reduce(signUpActions.codeVerified(), signUpActions.requestStarted('signUp'), signUpActions.completed({ name: '홍길동' }));
    expect(state).to.include({ completedName: '홍길동', pending: null });
  });

  it('starts over when the page opens again', () => {
    const state = reduce(signUpActions.codeSent({ email: 'a@b.co', resent: false }), signUpActions.pageOpened());
    expect(state).to.deep.equal(initialSignUpState);
  });
});

describe('when the server would take another code', () => {
  const sent = (at: number) => signUpActions.codeSent({ email: 'a@b.co', resent: true, at });

  it('is now for the first codes, and five minutes after the first of the last three once three went out', () => {
    expect(resendAvailableAt(reduce(sent(1_000), sent(2_000)))).to.equal(0);
    expect(resendAvailableAt(reduce(sent(1_000), sent(2_000), sent(3_000)))).to.equal(1_000 + SEND_WINDOW.windowMs);
    expect(resendAvailableAt(reduce(sent(1_000), sent(2_000), sent(3_000), sent(400_000)))).to.equal(2_000 + SEND_WINDOW.windowMs);
  });

  it('waits for the Retry-After of a 429 when that is later', () => {
    expect(resendAvailableAt(reduce(sent(1_000), signUpActions.sendRateLimited({ until: 90_000 })))).to.equal(90_000);
  });
});
