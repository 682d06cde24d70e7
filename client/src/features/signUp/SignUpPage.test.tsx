import { expect } from 'chai';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@common/api';
import { createFakeServices } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import SignUpPage from './SignUpPage';

function renderSignUp() {
  const services = createFakeServices({ [`POST ${api.verificationSend}`]: () => ({}), [`POST ${api.verificationVerify}`]: () => ({}) });
  renderApp(services, [{ path: '/sign-up', element: <SignUpPage /> }], '/sign-up');
  return { services };
}

const status = () => screen.getByTestId('sign-up-status').textContent;

describe('the sign-up page', () => {
  afterEach(cleanup);

  it('shows the code field only after a code was sent, then locks the e-mail and offers a resend', async () => {
    renderSignUp();
    expect(screen.queryByLabelText('인증번호')).to.equal(null);
    const email = screen.getByLabelText('이메일') as HTMLInputElement;
    expect(email.maxLength).to.equal(100);
    fireEvent.change(email, { target: { value: 'new@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: '인증번호 전송' }));

    await waitFor(() => expect(screen.getByLabelText('인증번호')).to.exist);
    expect((screen.getByLabelText('이메일') as HTMLInputElement).readOnly).to.equal(true);
    expect((screen.getByLabelText('인증번호') as HTMLInputElement).maxLength).to.equal(6);
    expect(screen.getByRole('button', { name: '인증번호 재전송' })).to.exist;
  });

  it('says verification must be completed when the form is sent too early', async () => {
    const { services } = renderSignUp();
    fireEvent.click(screen.getByRole('button', { name: '회원가입' }));
    await waitFor(() => expect(status()).to.equal('이메일 인증을 완료해주세요.'));
    expect(services.requests).to.have.length(0);
  });

  it('locks the code once it is verified and explains the name rule', async () => {
    renderSignUp();
    fireEvent.change(screen.getByLabelText('이메일'), { target: { value: 'new@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: '인증번호 전송' }));
    const code = await screen.findByLabelText('인증번호');
    fireEvent.change(code, { target: { value: '12a3456' } });
    expect((code as HTMLInputElement).value).to.equal('123456');
    fireEvent.submit(code.closest('form')!);
    await waitFor(() => expect(status()).to.equal('이메일 인증이 완료되었습니다.'));
    expect((screen.getByLabelText('인증번호') as HTMLInputElement).readOnly).to.equal(true);
    expect(screen.getByText(/한글도 사용할 수 있어요/)).to.exist;
  });
});
