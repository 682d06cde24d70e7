// The call UI mounted once at the app root: it rings on any signed-in screen, survives
// navigation, collapses to the call bar and hangs up from there.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'chai';
import { api } from '@common/api';
import { app, queues } from '@common/destinations';
import { AppShell } from '../../app/AppShell';
import { createFakeServices, FakeStomp } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import { signedInHosts } from '../../app/signedInHosts.test-support';
import { UID_KEY } from '../../services/uid';
import { FakeRtc } from '../../app/callFakes.test-support';

const ME = 1;
const KIM = { userId: 2, name: 'Kim' };

function renderSignedIn(at: string) {
  window.localStorage.setItem(UID_KEY, String(ME));
  const services = createFakeServices({ [`GET ${api.iceServers}`]: () => [] }, ME);
  const callStomp = new FakeStomp();
  callStomp.connect();
  const rtc = new FakeRtc();
  Object.assign(services, { callStomp, rtc });
  const rendered = renderApp(
    services,
    [
      {
        element: <AppShell hosts={signedInHosts} />,
        children: [
          { path: '/chat-room', element: <p>room screen</p> },
          { path: '/user-settings', element: <p>settings screen</p> },
          { path: '/login', element: <p>login screen</p> },
        ],
      },
    ],
    at,
  );
  services.currentPath = () => rendered.router.pathname();
  return { ...rendered, services, callStomp, rtc };
}

async function ringFromKim(callStomp: FakeStomp) {
  await waitFor(() => expect(callStomp.subscriptions.has(queues.call('incoming', ME))).to.equal(true));
  act(() => callStomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name }));
  return screen.findByTestId('incoming-call');
}

describe('the call host at the app root', () => {
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
  });

  it('rings on a chat room screen, keeps the call when the user moves on, and hangs up from the call bar', async () => {
    const { router, callStomp, rtc, services } = renderSignedIn('/chat-room');
    await ringFromKim(callStomp);
    fireEvent.click(screen.getByRole('button', { name: /수락/ }));
    await waitFor(() => expect(rtc.peers).to.have.length(1));
    act(() => rtc.peers[0].emit({ type: 'connectionState', state: 'connected' }));
    await screen.findByTestId('call-timer');

    act(() => router.navigate('/user-settings'));
    expect(screen.getByText('settings screen')).to.not.equal(null);
    expect(screen.queryByTestId('in-call')).to.equal(null);
    expect(screen.getByTestId('call-bar').textContent).to.contain('Kim');
    expect(callStomp.sentTo(app.callHangup)).to.deep.equal([]);

    fireEvent.click(screen.getByRole('button', { name: 'Kim님과의 통화 화면 열기' }));
    expect(screen.getByTestId('in-call')).to.not.equal(null);
    fireEvent.click(screen.getByRole('button', { name: '통화 화면 접기' }));
    const bar = screen.getByTestId('call-bar');
    fireEvent.click(bar.querySelector('button[aria-label="음소거"]')!);
    await waitFor(() => expect(rtc.microphones[0].muted).to.equal(true));
    fireEvent.click(bar.querySelector('button[aria-label="통화 종료"]')!);

    await waitFor(() => expect(screen.queryByTestId('call-bar')).to.equal(null));
    expect(callStomp.sentTo(app.callHangup)).to.deep.equal([{ targetUserId: KIM.userId }]);
    expect(router.pathname()).to.equal('/user-settings');
    expect(services.navigations).to.deep.equal([]);
  });

  it('shows the missed-call line on any screen after a call rings out, until dismissed', async () => {
    const { callStomp } = renderSignedIn('/user-settings');
    await ringFromKim(callStomp);
    act(() => callStomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId, reason: 'timeout' }));
    const line = await screen.findByTestId('missed-call');
    expect(line.textContent).to.contain('부재중 전화: Kim');
    expect(screen.queryByTestId('incoming-call')).to.equal(null);
    fireEvent.click(screen.getByRole('button', { name: '부재중 전화 알림 닫기' }));
    expect(screen.queryByTestId('missed-call')).to.equal(null);
  });

  it('does not listen for calls on the login screen', async () => {
    const { callStomp } = renderSignedIn('/login');
    await screen.findByText('login screen');
    expect(callStomp.subscriptions.size).to.equal(0);
  });
});
