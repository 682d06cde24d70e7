import { expect } from 'chai';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Dialog } from './Dialog';
import { DialogProvider, DialogQueue, useDialog } from './dialogs';

function press(key: string, shiftKey = false) {
  fireEvent.keyDown(document.activeElement ?? document.body, { key, shiftKey });
}

/** A page with a button that opens a dialog holding two buttons. */
function Page({ onCancel }: { onCancel?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        열기
      </button>
      <input aria-label="바깥 입력" />
      {open && (
        <Dialog
          role="dialog"
          label="설정"
          onCancel={() => {
            onCancel?.();
            setOpen(false);
          }}
        >
          <button type="button">첫째</button>
          <button type="button" disabled>
            꺼짐
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            닫기
          </button>
        </Dialog>
      )}
    </div>
  );
}

describe('Dialog', () => {
  afterEach(cleanup);

  it('is a modal dialog with a name, and moves focus to its first control when it opens', () => {
    render(<Page />);
    fireEvent.click(screen.getByText('열기'));
    const dialog = screen.getByRole('dialog', { name: '설정' });
    expect(dialog.getAttribute('aria-modal')).to.equal('true');
    expect(document.activeElement).to.equal(screen.getByText('첫째'));
  });

  it('keeps Tab and Shift+Tab inside, skipping disabled controls', () => {
    render(<Page />);
    fireEvent.click(screen.getByText('열기'));
    screen.getByText('닫기').focus();
    press('Tab');
    expect(document.activeElement).to.equal(screen.getByText('첫째'));
    press('Tab', true);
    expect(document.activeElement).to.equal(screen.getByText('닫기'));
  });

  it('pulls focus back in when something outside is focused', () => {
    render(<Page />);
    fireEvent.click(screen.getByText('열기'));
    act(() => screen.getByLabelText('바깥 입력').focus());
    expect(document.activeElement).to.equal(screen.getByText('첫째'));
  });

  it('makes the rest of the page inert while open, and not after', () => {
    const { container } = render(<Page />);
    fireEvent.click(screen.getByText('열기'));
    expect(container.hasAttribute('inert')).to.equal(true);
    fireEvent.click(screen.getByText('닫기'));
    expect(container.hasAttribute('inert')).to.equal(false);
  });

  it('cancels on Escape and returns focus to what opened it', () => {
    let cancelled = 0;
    render(<Page onCancel={() => (cancelled += 1)} />);
    const opener = screen.getByText('열기');
    opener.focus();
    fireEvent.click(opener);
    press('Escape');
    expect(cancelled).to.equal(1);
    expect(screen.queryByRole('dialog')).to.equal(null);
    expect(document.activeElement).to.equal(opener);
  });

  it('keeps its Escape from listeners on window (the room sidebar closes on Escape too)', () => {
    let windowHeard = 0;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') windowHeard += 1;
    };
    window.addEventListener('keydown', onKey);
    try {
      render(<Page />);
      fireEvent.click(screen.getByText('열기'));
      press('Escape');
      expect(screen.queryByRole('dialog')).to.equal(null);
      expect(windowHeard).to.equal(0);
    } finally {
      window.removeEventListener('keydown', onKey);
    }
  });
});

/** A button that asks through useDialog and shows the answer. */
function Asker({ destructive }: { destructive?: boolean }) {
  const dialog = useDialog();
  const [answer, setAnswer] = useState('없음');
  return (
    <>
      <button type="button" onClick={async () => setAnswer(String(await dialog.confirm('정말 채팅방을 나가시겠습니까?', { destructive })))}>
        나가기
      </button>
      <output>{answer}</output>
    </>
  );
}

describe('useDialog and DialogProvider', () => {
  afterEach(cleanup);

  it('confirm shows the exact text in an alertdialog and resolves true on 확인', async () => {
    render(
      <DialogProvider queue={new DialogQueue()}>
        <Asker />
      </DialogProvider>,
    );
    fireEvent.click(screen.getByText('나가기'));
    const dialog = screen.getByRole('alertdialog', { name: '정말 채팅방을 나가시겠습니까?' });
    expect(dialog.getAttribute('aria-modal')).to.equal('true');
    expect(document.activeElement?.textContent).to.equal('확인');
    fireEvent.click(screen.getByRole('button', { name: '확인' }));
    expect(await screen.findByText('true')).to.exist;
    expect(screen.queryByRole('alertdialog')).to.equal(null);
  });

  it('confirm resolves false on Escape, and a destructive one focuses 취소 first', async () => {
    render(
      <DialogProvider queue={new DialogQueue()}>
        <Asker destructive />
      </DialogProvider>,
    );
    const opener = screen.getByText('나가기');
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement?.textContent).to.equal('취소');
    press('Escape');
    expect(await screen.findByText('false')).to.exist;
    expect(document.activeElement).to.equal(opener);
  });

  it('shows queued alerts one at a time, in order, from outside React (the sagas\' alert service)', async () => {
    const queue = new DialogQueue();
    render(<DialogProvider queue={queue}>{null}</DialogProvider>);
    let dismissed = 0;
    act(() => {
      void queue.alert('Error starting chat.').then(() => (dismissed += 1));
      void queue.alert('통화를 위해 마이크 권한을 확인해주세요.').then(() => (dismissed += 1));
    });
    expect(screen.getByRole('alertdialog').textContent).to.contain('Error starting chat.');
    expect(screen.queryByRole('button', { name: '취소' })).to.equal(null);
    fireEvent.click(screen.getByRole('button', { name: '확인' }));
    expect(screen.getByRole('alertdialog').textContent).to.contain('통화를 위해 마이크 권한을 확인해주세요.');
    press('Escape');
    expect(screen.queryByRole('alertdialog')).to.equal(null);
    await act(() => Promise.resolve());
    expect(dismissed).to.equal(2);
  });
});
