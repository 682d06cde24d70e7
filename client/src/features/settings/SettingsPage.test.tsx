import { expect } from 'chai';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@common/api';
import { createFakeServices, eventually, httpError, type FakeRoute } from '../../app/fakeServices';
import { HttpError } from '../../services/http';
import { renderApp } from '../../app/renderApp.test-support';
import SettingsPage from './SettingsPage';

function renderSettings(state: unknown, patch: FakeRoute = () => ({ status: 'success' })) {
  const services = createFakeServices({
    [`PATCH ${api.userInfo}`]: patch,
    [`GET ${api.userProfile}`]: () => ({ userId: 1, name: '홍길동', photoVersion: null, statusMessage: null }),
    [`GET ${api.friends}`]: () => [],
    [`GET ${api.blocks}`]: () => [],
  });
  const { router } = renderApp(
    services,
    [
      { path: '/user-settings', element: <SettingsPage /> },
      { path: '/chat-list', element: <p>chat list</p> },
    ],
    { pathname: '/user-settings', state },
  );
  return { services, router };
}

const profile = { name: '홍길동', email: 'hong@example.test' };

function fill(name: string, password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('이름'), { target: { value: name } });
  fireEvent.change(screen.getByLabelText('현재 또는 새 비밀번호'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('비밀번호 확인'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: '수정하기' }));
}

const status = () => screen.getByTestId('settings-status').textContent;

describe('the settings page', () => {
  afterEach(cleanup);

  it('goes to /chat-list when opened without the name and e-mail in router state', async () => {
    const { router } = renderSettings(null);
    await waitFor(() => expect(router.pathname()).to.equal('/chat-list'));
  });

  it('shows the e-mail read-only and the name ready to edit, at most 100 characters', () => {
    renderSettings(profile);
    expect((screen.getByLabelText('이메일') as HTMLInputElement).readOnly).to.equal(true);
    expect((screen.getByLabelText('이메일') as HTMLInputElement).value).to.equal(profile.email);
    const name = screen.getByLabelText('이름') as HTMLInputElement;
    expect(name.value).to.equal('홍길동');
    expect(name.maxLength).to.equal(100);
  });

  it('asks for a password and for matching passwords without sending anything', async () => {
    const { services } = renderSettings(profile);
    fill('홍길동', '', '');
    await waitFor(() => expect(status()).to.equal('비밀번호를 입력해주세요.'));
    fill('홍길동', 'a', 'b');
    await waitFor(() => expect(status()).to.equal('비밀번호가 일치하지 않습니다.'));
    // Only the typing preference is read; the profile is not sent.
    // Only what the page reads when it opens (preferences, profile, friends, blocks): nothing sent.
    expect(services.requests.filter((r) => r.method !== 'GET')).to.deep.equal([]);
  });

  it('refuses the same name with the current password', async () => {
    renderSettings(profile, () => ({ status: 'name' }));
    fill('홍길동', 'pw', 'pw');
    await waitFor(() => expect(status()).to.equal('같은이름으로 업데이트 할 수 없습니다'));
  });

  it('says the name or password is invalid when the server refuses', async () => {
    renderSettings(profile, () => { throw httpError(400); });
    fill('홍길동', 'pw', 'pw');
    await waitFor(() => expect(status()).to.equal('유효하지 않은 이름 또는 비밀번호입니다.'));
  });

  it('shows the update-complete message and then goes to /chat-list', async () => {
    const { services } = renderSettings(profile);
    fill('김철수', 'new-pw', 'new-pw');
    await waitFor(() => expect(status()).to.equal('회원정보 수정이 완료되었습니다!'));
    await eventually(() => services.navigations.length > 0, 'navigation');
    expect(services.navigations[0].to).to.equal('/chat-list');
    expect(services.requests.find((r) => r.path === api.userInfo)?.body).to.deep.equal({ name: '김철수', password: 'new-pw' });
  });

  it('asks for the current password only when the server says the password changes, then sends it', async () => {
    const { services } = renderSettings(profile, (request) => {
      const body = request.body as { currentPassword?: string };
      if (body.currentPassword === undefined) throw new HttpError(403, { error: 'current_password_required', message: 'needed' });
      if (body.currentPassword !== 'old-pw') throw new HttpError(403, { error: 'wrong_current_password', message: 'wrong' });
      return { status: 'success' };
    });
    expect(screen.queryByLabelText('현재 비밀번호')).to.equal(null);
    fill('홍길동', 'new-pw', 'new-pw');
    await waitFor(() => expect(status()).to.equal('비밀번호를 바꾸려면 현재 비밀번호를 입력해주세요.'));
    fireEvent.change(screen.getByLabelText('현재 비밀번호'), { target: { value: 'a guess' } });
    fireEvent.click(screen.getByRole('button', { name: '수정하기' }));
    await waitFor(() => expect(status()).to.equal('현재 비밀번호가 일치하지 않습니다.'));
    fireEvent.change(screen.getByLabelText('현재 비밀번호'), { target: { value: 'old-pw' } });
    fireEvent.click(screen.getByRole('button', { name: '수정하기' }));
    await waitFor(() => expect(status()).to.equal('회원정보 수정이 완료되었습니다!'));
    expect(services.requests.at(-1)!.body).to.deep.equal({ name: '홍길동', password: 'new-pw', currentPassword: 'old-pw' });
  });

  it('shows the typing switch as stored and saves a change, the switch disabled meanwhile', async () => {
    const services = createFakeServices({
      [`GET ${api.preferences}`]: () => ({ sendTyping: true }),
      [`PATCH ${api.preferences}`]: (r) => r.body,
    });
    renderApp(services, [{ path: '/user-settings', element: <SettingsPage /> }], { pathname: '/user-settings', state: profile });
    const toggle = () => screen.getByTestId('typing-switch') as HTMLInputElement;
    await waitFor(() => expect(toggle().disabled).to.equal(false));
    expect(toggle().checked).to.equal(true);
    fireEvent.click(toggle());
    await waitFor(() => expect(toggle().checked).to.equal(false));
    expect(services.requests.find((r) => r.method === 'PATCH')?.body).to.deep.equal({ sendTyping: false });
  });
});
