import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { expect } from 'chai';
import { CallBar } from './CallBar';
import { InCallOverlay, type InCallOverlayProps } from './InCallOverlay';
import { IncomingCallOverlay } from './IncomingCallOverlay';
import { MissedCallLine } from './MissedCallLine';

const noop = () => undefined;
const inCall = (props: Partial<InCallOverlayProps>) => (
  <InCallOverlay peerName="Kim" connected={false} elapsedSeconds={0} muted={false} onHangUp={noop} onToggleMute={noop} onCollapse={noop} {...props} />
);

describe('call overlays', () => {
  afterEach(cleanup);

  it('shows the caller name with accept and reject on an incoming call', () => {
    const clicks: string[] = [];
    render(<IncomingCallOverlay callerName="김철수" onAccept={() => clicks.push('accept')} onReject={() => clicks.push('reject')} />);
    expect(screen.getByRole('dialog').textContent).to.contain('김철수');
    fireEvent.click(screen.getByRole('button', { name: /수락/ }));
    fireEvent.click(screen.getByRole('button', { name: /거절/ }));
    expect(clicks).to.deep.equal(['accept', 'reject']);
  });

  it('reads 연결 중… with no timer while the call connects', () => {
    render(inCall({}));
    expect(screen.getByTestId('call-status').textContent).to.equal('연결 중…');
    expect(screen.queryByTestId('call-timer')).to.equal(null);
  });

  it('reads 통화 중 with the mm:ss timer once connected, and hangs up on the button', () => {
    let hungUp = false;
    render(inCall({ connected: true, elapsedSeconds: 75, onHangUp: () => (hungUp = true) }));
    expect(screen.getByRole('dialog').textContent).to.contain('Kim');
    expect(screen.getByTestId('call-status').textContent).to.equal('통화 중');
    expect(screen.getByTestId('call-timer').textContent).to.equal('01:15');
    fireEvent.click(screen.getByRole('button', { name: /통화 종료/ }));
    expect(hungUp).to.equal(true);
  });

  it('offers mute as a toggle that reads 음소거 해제 while muted, and collapses to the call bar', () => {
    const clicks: string[] = [];
    const { rerender } = render(inCall({ onToggleMute: () => clicks.push('mute'), onCollapse: () => clicks.push('collapse') }));
    const mute = screen.getByRole('button', { name: '음소거' });
    expect(mute.getAttribute('aria-pressed')).to.equal('false');
    fireEvent.click(mute);
    fireEvent.click(screen.getByRole('button', { name: '통화 화면 접기' }));
    expect(clicks).to.deep.equal(['mute', 'collapse']);
    rerender(inCall({ muted: true }));
    expect(screen.getByRole('button', { name: '음소거 해제' }).getAttribute('aria-pressed')).to.equal('true');
  });
});

describe('the call overlays as modal dialogs', () => {
  afterEach(cleanup);

  it('moves focus to accept, keeps Tab inside, and rejects the incoming call on Escape', () => {
    const clicks: string[] = [];
    render(
      <>
        <button type="button">behind the dialog</button>
        <IncomingCallOverlay callerName="Kim" onAccept={() => clicks.push('accept')} onReject={() => clicks.push('reject')} />
      </>,
    );
    const accept = screen.getByRole('button', { name: /수락/ });
    const reject = screen.getByRole('button', { name: /거절/ });
    expect(document.activeElement).to.equal(accept);
    fireEvent.keyDown(accept, { key: 'Tab' });
    expect(document.activeElement).to.equal(reject);
    fireEvent.keyDown(reject, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).to.equal(accept);
    expect(screen.getByRole('dialog').getAttribute('aria-modal')).to.equal('true');
    fireEvent.keyDown(accept, { key: 'Escape' });
    expect(clicks).to.deep.equal(['reject']);
  });

  it('collapses the in-call overlay to the call bar on Escape', () => {
    const clicks: string[] = [];
    render(inCall({ onCollapse: () => clicks.push('collapse'), onHangUp: () => clicks.push('hangUp') }));
    expect(screen.getByRole('dialog').contains(document.activeElement)).to.equal(true);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(clicks).to.deep.equal(['collapse']);
  });
});

describe('the ring status on the overlays', () => {
  afterEach(cleanup);

  it('asks for a tap when the browser blocks the ring, and marks the tone that sounds', () => {
    const { rerender } = render(<IncomingCallOverlay callerName="Kim" onAccept={noop} onReject={noop} ring={{ tone: 'ringing', blocked: true }} />);
    expect(screen.getByTestId('ring-blocked').textContent).to.equal('브라우저가 소리를 막았습니다. 화면을 한 번 누르면 벨소리가 울립니다.');
    rerender(<IncomingCallOverlay callerName="Kim" onAccept={noop} onReject={noop} ring={{ tone: 'ringing', blocked: false }} />);
    expect(screen.queryByTestId('ring-blocked')).to.equal(null);
    expect(screen.getByTestId('incoming-call').getAttribute('data-ring')).to.equal('ringing');
  });
});

describe('call bar', () => {
  afterEach(cleanup);

  it('shows the peer and the mm:ss timer, expands on a tap, mutes and hangs up', () => {
    const clicks: string[] = [];
    render(
      <CallBar
        peerName="Kim"
        connected
        elapsedSeconds={605}
        muted={false}
        onExpand={() => clicks.push('expand')}
        onToggleMute={() => clicks.push('mute')}
        onHangUp={() => clicks.push('hangUp')}
      />,
    );
    expect(screen.getByTestId('call-bar-timer').textContent).to.equal('10:05');
    fireEvent.click(screen.getByRole('button', { name: 'Kim님과의 통화 화면 열기' }));
    fireEvent.click(screen.getByRole('button', { name: '음소거' }));
    fireEvent.click(screen.getByRole('button', { name: '통화 종료' }));
    expect(clicks).to.deep.equal(['expand', 'mute', 'hangUp']);
  });

  it('reads 연결 중… until the call is connected', () => {
    render(<CallBar peerName="Kim" connected={false} elapsedSeconds={0} muted onExpand={noop} onToggleMute={noop} onHangUp={noop} />);
    expect(screen.getByTestId('call-bar-timer').textContent).to.equal('연결 중…');
    expect(screen.getByRole('button', { name: '음소거 해제' }).getAttribute('aria-pressed')).to.equal('true');
  });
});

describe('missed-call line', () => {
  afterEach(cleanup);

  it("reads '부재중 전화: {name}' and is dismissed with its button", () => {
    let dismissed = false;
    render(<MissedCallLine callerName="이영희" onDismiss={() => (dismissed = true)} />);
    expect(screen.getByRole('status').textContent).to.contain('부재중 전화: 이영희');
    fireEvent.click(screen.getByRole('button', { name: '부재중 전화 알림 닫기' }));
    expect(dismissed).to.equal(true);
  });
});
