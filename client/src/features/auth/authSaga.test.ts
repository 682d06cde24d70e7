import { expect } from 'chai';
import { api } from '@common/api';
import { allFeatures } from '../../app/allFeatures';
import { createAppStore } from '../../app/store';
import { createFakeServices, eventually, type FakeNotifier, httpError } from '../../app/fakeServices';
import { ko } from '../../i18n/ko';
import { loginPageOpened, loginSubmitted, logoutRequested, oauthRequested } from './authSlice';
import { describeLoginStatus } from './loginStatus';

function setUp(routes: Parameters<typeof createFakeServices>[0] = {}, uid: number | null = null) {
  const services = createFakeServices(routes, uid);
  const store = createAppStore(services, { features: allFeatures });
  // Every change of the status line's words, in order.
  const lines: string[] = [];
  let last = describeLoginStatus(store.getState().auth.status).text;
  store.subscribe(() => {
    const text = describeLoginStatus(store.getState().auth.status).text;
    if (text !== last) lines.push(text);
    last = text;
  });
  return { services, store, lines };
}

describe('the login status flow', () => {
  it('shows logging in, then welcomes the user by name, stores the uid and goes to /chat-list', async () => {
    const { services, store, lines } = setUp({ [`POST ${api.login}`]: () => ({ name: '홍길동', userId: 42 }) });
    store.dispatch(loginSubmitted({ email: 'hong@example.test', password: 'pw' }));
    await eventually(() => services.navigations.length > 0, 'navigation');

    expect(lines).to.deep.equal(['logging in...', '홍길동님 환영합니다!']);
    expect(services.uid.read()).to.equal(42);
    expect(services.navigations).to.deep.equal([{ to: '/chat-list', options: undefined }]);
    expect(services.requests[0].body).to.deep.equal({ email: 'hong@example.test', password: 'pw' });
  });

  it('shows the mismatch message and stores nothing when the server refuses', async () => {
    const { services, store, lines } = setUp({ [`POST ${api.login}`]: () => { throw httpError(401); } });
    store.dispatch(loginSubmitted({ email: 'hong@example.test', password: 'wrong' }));
    await eventually(() => !store.getState().auth.busy && lines.length === 2, 'the failure');

    expect(lines).to.deep.equal(['logging in...', ko.login.mismatch]);
    expect(services.uid.read()).to.equal(null);
    expect(services.navigations).to.have.length(0);
    expect(services.errors).to.have.length(1);
  });

  it('asks to check both fields and sends nothing when one is empty', async () => {
    const { services, store, lines } = setUp();
    store.dispatch(loginSubmitted({ email: 'hong@example.test', password: '' }));
    store.dispatch(loginSubmitted({ email: '', password: 'pw' }));
    await eventually(() => lines.length > 0, 'a status line');
    expect(lines).to.deep.equal([ko.login.incomplete]);
    expect(services.requests).to.have.length(0);
  });

  it('removes the stored uid when the login page opens, and shows an OAuth error it was sent back with', () => {
    const { services, store } = setUp({}, 7);
    store.dispatch(loginPageOpened({ oauthError: 'kakao' }));
    expect(services.uid.read()).to.equal(null);
    expect(describeLoginStatus(store.getState().auth.status).text).to.equal('카카오 로그인 에러');
  });

  it('sends the browser to the provider address from the server', async () => {
    const url = 'https://accounts.example.test/auth?state=abc';
    const { services, store } = setUp({ [`GET ${api.oauthLogin('google')}`]: () => ({ url }) });
    store.dispatch(oauthRequested('google'));
    await eventually(() => services.redirects.length > 0, 'the redirect');
    expect(services.redirects).to.deep.equal([url]);
  });

  it('shows the provider error when the start address cannot be had', async () => {
    const { store } = setUp({ [`GET ${api.oauthLogin('google')}`]: () => { throw httpError(503); } });
    store.dispatch(oauthRequested('google'));
    await eventually(() => store.getState().auth.status.kind === 'oauthError', 'the error');
    expect(describeLoginStatus(store.getState().auth.status).text).to.equal('구글 로그인 에러');
    expect(store.getState().auth.busy).to.equal(false);
  });

  it('ends the push subscription of this device, in the browser and on the server, before the session', async () => {
    const { services, store } = setUp({ [`DELETE ${api.pushSubscriptions}`]: () => ({ status: 'success' }), [`POST ${api.logout}`]: () => ({}) }, 9);
    const notifier = services.notifier as FakeNotifier;
    notifier.held = notifier.subscription;
    const { endpoint } = notifier.subscription!;
    store.dispatch(logoutRequested());
    await eventually(() => services.navigations.length > 0, 'navigation');
    expect(services.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`DELETE ${api.pushSubscriptions}`, `POST ${api.logout}`]);
    expect(services.requests[0].body).to.deep.equal({ endpoint });
    expect(notifier.unsubscribed).to.deep.equal([endpoint]);
  });

  it('logs out on the server, forgets the uid and goes to /login even when the server is unreachable', async () => {
    const { services, store } = setUp({ [`POST ${api.logout}`]: () => { throw httpError(500); } }, 9);
    store.dispatch(logoutRequested());
    await eventually(() => services.navigations.length > 0, 'navigation');
    expect(services.uid.read()).to.equal(null);
    expect(services.navigations).to.deep.equal([{ to: '/login', options: { replace: true } }]);
  });
});
