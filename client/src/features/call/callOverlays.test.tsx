import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { expect } from 'chai';
import { InCallOverlay } from './InCallOverlay';
import { IncomingCallOverlay } from './IncomingCallOverlay';

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

  it('reads 연결 중 with no timer while the call connects', () => {
    render(<InCallOverlay peerName="Kim" connected={false} elapsedSeconds={0} onHangUp={() => undefined} />);
    expect(screen.getByTestId('call-status').textContent).to.equal('연결 중');
    expect(screen.queryByTestId('call-timer')).to.equal(null);
  });

  it('reads 통화 중 with the mm:ss timer once connected, and hangs up on the button', () => {
    let hungUp = false;
    render(<InCallOverlay peerName="Kim" connected elapsedSeconds={75} onHangUp={() => (hungUp = true)} />);
    expect(screen.getByRole('dialog').textContent).to.contain('Kim');
    expect(screen.getByTestId('call-status').textContent).to.equal('통화 중');
    expect(screen.getByTestId('call-timer').textContent).to.equal('01:15');
    fireEvent.click(screen.getByRole('button', { name: /통화 종료/ }));
    expect(hungUp).to.equal(true);
  });
});
