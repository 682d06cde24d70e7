import { expect } from 'chai';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@common/api';
import { createFakeServices, httpError, settle } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import LoginPage from './LoginPage';

function renderLogin(initialPath = '/login', routes: Parameters<typeof createFakeServices>[0] = {}) {
  const services = createFakeServices(routes, 5);
  const { store } = renderApp(services, [{ path: '/login', element: <LoginPage /> }], initialPath);
  return { services, store };
}

describe('the login page', () => {
  afterEach(cleanup);

  it('shows the title, an e-mail input limited to 255 characters and a sign up link', () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: "Let's Chat !" })).to.exist;
    const email = screen.getByLabelText('이메일') as HTMLInputElement;
    expect(email.type).to.equal('email');
    expect(email.maxLength).to.equal(255);
    expect((screen.getByLabelText('비밀번호') as HTMLInputElement).maxLength).to.equal(255);
    expect(screen.getByRole('link', { name: 'sign up' }).getAttribute('href')).to.equal('/sign-up');
  });

  it('forgets the stored uid as soon as it opens and ends the server session too', async () => {
    const { services } = renderLogin('/login', { [`POST ${api.logout}`]: () => ({ status: 'success' }) });
    expect(services.uid.read()).to.equal(null);
    await waitFor(() => expect(services.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`POST ${api.logout}`]));
    expect(services.errors).to.deep.equal([]);
  });

  it('sends a login only once the logout of the page opening is answered', async () => {
    let answerLogout!: (value: unknown) => void;
    const { services } = renderLogin('/login', {
      [`POST ${api.logout}`]: () => new Promise((resolve) => (answerLogout = resolve)),
      [`POST ${api.login}`]: () => ({ name: '홍길동', userId: 9 }),
    });
    fireEvent.change(screen.getByLabelText('이메일'), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText('비밀번호'), { target: { value: 'pw' } });
    fireEvent.submit(screen.getByLabelText('비밀번호').closest('form')!);
    // Every saga step the submit started has run (no time needed: the fakes answer in turns).
    await settle();
    expect(services.requests.map((r) => r.path)).to.deep.equal([api.logout]);
    answerLogout({ status: 'success' });
    await waitFor(() => expect(services.requests.map((r) => r.path)).to.deep.equal([api.logout, api.login]));
  });

  it('submits on Enter in the password field and shows the mismatch message on refusal', async () => {
    const { services } = renderLogin('/login', { [`POST ${api.login}`]: () => { throw httpError(401); } });
    fireEvent.change(screen.getByLabelText('이메일'), { target: { value: 'a@b.co' } });
    const password = screen.getByLabelText('비밀번호');
    fireEvent.change(password, { target: { value: 'nope' } });
    fireEvent.submit(password.closest('form')!);
    await waitFor(() => expect(screen.getByRole('status').textContent).to.equal('이메일 또는 비밀번호가 일치하지 않습니다'));
    // Opening the page ended the server session first (docs/spec.md §2: /login acts as logout).
    expect(services.requests.map((r) => r.path)).to.deep.equal([api.logout, api.login]);
  });

  it('ties the status line to the field it is about: the empty password is invalid, the e-mail is not', async () => {
    renderLogin();
    expect(document.activeElement).to.equal(screen.getByLabelText('이메일'));
    fireEvent.change(screen.getByLabelText('이메일'), { target: { value: 'a@b.co' } });
    fireEvent.submit(screen.getByLabelText('비밀번호').closest('form')!);
    await waitFor(() => expect(screen.getByRole('status').textContent).to.equal('이메일과 비밀번호를 다시 확인해주세요.'));
    const password = screen.getByLabelText('비밀번호');
    expect(password.getAttribute('aria-invalid')).to.equal('true');
    expect(password.getAttribute('aria-describedby')).to.equal(screen.getByRole('status').id);
    expect(screen.getByLabelText('이메일').getAttribute('aria-invalid')).to.equal(null);
  });

  it('shows the Google error when the server sent the user back with ?oauthError=google', () => {
    renderLogin('/login?oauthError=google');
    expect(screen.getByRole('status').textContent).to.equal('구글 로그인 에러');
  });

  it('asks the server for the Kakao address when the Kakao button is pressed', async () => {
    const { services } = renderLogin('/login', { [`GET ${api.oauthLogin('kakao')}`]: () => ({ url: 'https://kauth.example.test/x' }) });
    fireEvent.click(screen.getByRole('button', { name: /카카오/ }));
    await waitFor(() => expect(services.redirects).to.deep.equal(['https://kauth.example.test/x']));
  });
});
