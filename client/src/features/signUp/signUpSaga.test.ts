import { expect } from 'chai';
import { api } from '@common/api';
import { allFeatures } from '../../app/allFeatures';
import { createAppStore } from '../../app/store';
import { createFakeServices, deferred, eventually, httpError, networkError, type FakeServices } from '../../app/fakeServices';
import { signUpActions } from './signUpSlice';

const EMAIL = 'new.user@example.test';
const SEND = `POST ${api.verificationSend}`;
const VERIFY = `POST ${api.verificationVerify}`;
const SIGN_UP = `POST ${api.signUp}`;

function setUp(routes: Parameters<typeof createFakeServices>[0] = {}) {
  const services = createFakeServices({ [SEND]: () => ({}), [VERIFY]: () => ({}), [SIGN_UP]: (r) => ({ name: (r.body as { name: string }).name }), ...routes });
  const store = createAppStore(services, { features: allFeatures });
  const signUp = () => store.getState().signUp;
  const settled = (what: string) => eventually(() => signUp().pending === null, what);
  return { services, store, signUp, settled };
}

const sentTo = (services: FakeServices, key: string) => services.requests.filter((r) => `${r.method} ${r.path}` === key);

describe('the sign-up saga', () => {
  it('sends a code, verifies it, creates the account and goes to /login', async () => {
    const { services, store, signUp, settled } = setUp();
    store.dispatch(signUpActions.codeRequested({ email: ` ${EMAIL} ` }));
    await settled('code sent');
    expect(signUp()).to.include({ phase: 'codeSent', email: EMAIL, message: 'codeSent' });

    store.dispatch(signUpActions.codeSubmitted({ code: '123456' }));
    await settled('code verified');
    expect(signUp()).to.include({ phase: 'verified', message: 'verified' });

    store.dispatch(signUpActions.formSubmitted({ name: '홍길동', password: 'pw-1', confirmPassword: 'pw-1' }));
    await eventually(() => services.navigations.length > 0, 'navigation to /login');

    expect(signUp().completedName).to.equal('홍길동');
    expect(services.navigations).to.deep.equal([{ to: '/login', options: undefined }]);
    expect(sentTo(services, SEND)[0].body).to.deep.equal({ email: EMAIL });
    expect(sentTo(services, VERIFY)[0].body).to.deep.equal({ email: EMAIL, code: '123456' });
    expect(sentTo(services, SIGN_UP)[0].body).to.deep.equal({ name: '홍길동', password: 'pw-1', email: EMAIL });
  });

  it('asks for the e-mail and sends nothing when it is empty', async () => {
    const { services, store, signUp } = setUp();
    store.dispatch(signUpActions.codeRequested({ email: '  ' }));
    await eventually(() => signUp().message !== null, 'a message');
    expect(signUp()).to.include({ phase: 'unverified', message: 'emailRequired', failed: true });
    expect(services.requests).to.have.length(0);
  });

  it('says the address already has an account when sending answers 401', async () => {
    const { store, signUp, settled } = setUp({ [SEND]: () => { throw httpError(401); } });
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await settled('send failed');
    expect(signUp()).to.include({ phase: 'unverified', message: 'emailExists', failed: true });
  });

  it('says sending failed on another error status, and to try later on a network error', async () => {
    const { services, store, signUp, settled } = setUp({ [SEND]: () => { throw httpError(500); } });
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await settled('send failed');
    expect(signUp().message).to.equal('sendFailed');

    services.route(SEND, () => { throw networkError(); });
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await eventually(() => signUp().message === 'tryLater', 'the network message');
    expect(signUp().phase).to.equal('unverified');
    expect(services.errors.map((e) => e.context)).to.deep.equal(['verification send', 'verification send']);
  });

  it('resends to the locked address and tells the user to check the spam folder', async () => {
    const { services, store, signUp, settled } = setUp();
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await settled('code sent');
    store.dispatch(signUpActions.codeRequested({ email: 'someone.else@example.test' }));
    await eventually(() => signUp().message === 'codeResent', 'resent message');
    expect(sentTo(services, SEND).map((r) => r.body)).to.deep.equal([{ email: EMAIL }, { email: EMAIL }]);
  });

  it('asks to wait 5 minutes when a resend answers 429, and to try later on other resend failures', async () => {
    const { services, store, signUp, settled } = setUp();
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await settled('code sent');

    services.route(SEND, () => { throw httpError(429); });
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await eventually(() => signUp().message === 'resendLimited', 'the 429 message');

    services.route(SEND, () => { throw httpError(500); });
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await eventually(() => signUp().message === 'tryLater', 'the try-later message');
    expect(signUp().phase).to.equal('codeSent');
  });

  it('rejects an empty code without a request and a wrong code with the 400 message', async () => {
    const { services, store, signUp, settled } = setUp({ [VERIFY]: () => { throw httpError(400); } });
    store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await settled('code sent');

    store.dispatch(signUpActions.codeSubmitted({ code: ' ' }));
    await eventually(() => signUp().message === 'codeRequired', 'the empty-code message');
    expect(sentTo(services, VERIFY)).to.have.length(0);

    store.dispatch(signUpActions.codeSubmitted({ code: '000000' }));
    await eventually(() => signUp().message === 'wrongCode', 'the wrong-code message');
    expect(signUp().phase).to.equal('codeSent');
  });

  it('refuses the form until the address is verified, without a request', async () => {
    const { services, store, signUp } = setUp();
    store.dispatch(signUpActions.formSubmitted({ name: '홍길동', password: 'pw', confirmPassword: 'pw' }));
    await eventually(() => signUp().message !== null, 'a message');
    expect(signUp().message).to.equal('verificationRequired');
    expect(services.requests).to.have.length(0);
  });

  async function verified() {
    const context = setUp();
    context.store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
    await context.settled('code sent');
    context.store.dispatch(signUpActions.codeSubmitted({ code: '123456' }));
    await context.settled('verified');
    return context;
  }

  it('checks the form in order: empty fields, then the name rule, then matching passwords', async () => {
    const { services, store, signUp } = await verified();
    // Each check starts from a fresh, verified form (pageOpened resets the machine).
    const again = async (form: { name: string; password: string; confirmPassword: string }) => {
      store.dispatch(signUpActions.pageOpened());
      store.dispatch(signUpActions.codeRequested({ email: EMAIL }));
      await eventually(() => signUp().phase === 'codeSent', 'code sent');
      store.dispatch(signUpActions.codeSubmitted({ code: '123456' }));
      await eventually(() => signUp().phase === 'verified', 'verified');
      store.dispatch(signUpActions.formSubmitted(form));
      await eventually(() => signUp().failed, 'a failure');
      return signUp().message;
    };
    expect(await again({ name: '', password: 'pw', confirmPassword: 'pw' })).to.equal('incomplete');
    expect(await again({ name: '홍길동', password: '', confirmPassword: '' })).to.equal('incomplete');
    expect(await again({ name: '1abc', password: 'pw', confirmPassword: 'pw' })).to.equal('invalidName');
    expect(await again({ name: '홍길동', password: 'pw', confirmPassword: 'other' })).to.equal('passwordMismatch');
    expect(sentTo(services, SIGN_UP)).to.have.length(0);
  });

  it('shows the sign-up failure message and stays verified when the server refuses', async () => {
    const { services, store, signUp, settled } = await verified();
    services.route(SIGN_UP, () => { throw httpError(409); });
    store.dispatch(signUpActions.formSubmitted({ name: '홍길동', password: 'pw', confirmPassword: 'pw' }));
    await eventually(() => signUp().failed, 'the failure');
    await settled('settled');
    expect(signUp()).to.include({ phase: 'verified', message: 'signUpFailed', completedName: null });
    expect(services.navigations).to.have.length(0);
  });

  it('ignores a second submit while the first one is still running', async () => {
    const { services, store, signUp } = await verified();
    const held = deferred<{ name: string }>();
    services.route(SIGN_UP, () => held.promise);
    const form = { name: '홍길동', password: 'pw', confirmPassword: 'pw' };
    store.dispatch(signUpActions.formSubmitted(form));
    await eventually(() => signUp().pending === 'signUp', 'the request to start');
    store.dispatch(signUpActions.formSubmitted(form));
    held.resolve({ name: '홍길동' });
    await eventually(() => signUp().completedName === '홍길동', 'completion');
    expect(sentTo(services, SIGN_UP)).to.have.length(1);
  });
});
