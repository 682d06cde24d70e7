// Confirmations and alerts in the app's own Dialog instead of window.confirm / window.alert.
// A DialogQueue holds what waits to be shown (one at a time, in order) and is usable from anywhere:
// components get it with useDialog(), sagas through the `alert` service (kernel/services.ts).
// DialogProvider shows the queue's first entry.
import { createContext, useContext, useId, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { ko } from '../i18n/ko';
import { Button } from './Button';
import { Dialog } from './Dialog';

export interface ConfirmOptions {
  /** The label of the button that confirms (default '확인'). */
  confirmLabel?: string;
  /** A destructive action (leaving a room): the confirm button is red and Cancel gets the focus. */
  destructive?: boolean;
}

export interface DialogRequest {
  id: number;
  kind: 'alert' | 'confirm';
  message: string;
  options: ConfirmOptions;
}

type Listener = () => void;

export class DialogQueue {
  private entries: Array<{ request: DialogRequest; resolve: (ok: boolean) => void }> = [];
  private readonly listeners = new Set<Listener>();
  private nextId = 1;

  /** Shows `message` with one OK button; resolves when it is dismissed. */
  alert(message: string): Promise<void> {
    return this.enqueue('alert', message, {}).then(() => undefined);
  }

  /** Asks `message` with Cancel and OK; resolves true for OK, false for Cancel or Escape. */
  confirm(message: string, options: ConfirmOptions = {}): Promise<boolean> {
    return this.enqueue('confirm', message, options);
  }

  /** The dialog on screen now, if any. */
  current = (): DialogRequest | null => this.entries[0]?.request ?? null;

  /** Answers the dialog on screen and shows the next one. */
  answer(id: number, ok: boolean): void {
    const head = this.entries[0];
    if (!head || head.request.id !== id) return;
    this.entries = this.entries.slice(1);
    head.resolve(ok);
    this.emit();
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private enqueue(kind: DialogRequest['kind'], message: string, options: ConfirmOptions): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.entries = [...this.entries, { request: { id: this.nextId++, kind, message, options }, resolve }];
      this.emit();
    });
  }

  private emit(): void {
    this.listeners.forEach((listener) => listener());
  }
}

const DialogContext = createContext<DialogQueue | null>(null);

/** The app's dialogs: `await confirm(text)` and `alert(text)`, shown by the nearest DialogProvider. */
export function useDialog(): DialogQueue {
  const queue = useContext(DialogContext);
  if (!queue) throw new Error('useDialog needs a <DialogProvider> above it');
  return queue;
}

export function DialogProvider({ queue, children }: { queue: DialogQueue; children: ReactNode }) {
  return (
    <DialogContext.Provider value={queue}>
      {children}
      <DialogHost queue={queue} />
    </DialogContext.Provider>
  );
}

function DialogHost({ queue }: { queue: DialogQueue }) {
  const request = useSyncExternalStore(queue.subscribe, queue.current, queue.current);
  // A new key per request: each one mounts its own Dialog, so focus handling runs per dialog.
  return request ? <MessageDialog key={request.id} request={request} onAnswer={(ok) => queue.answer(request.id, ok)} /> : null;
}

function MessageDialog({ request, onAnswer }: { request: DialogRequest; onAnswer(ok: boolean): void }) {
  const messageId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const okRef = useRef<HTMLButtonElement>(null);
  const isConfirm = request.kind === 'confirm';
  const destructive = isConfirm && request.options.destructive === true;
  return (
    <Dialog role="alertdialog" labelledBy={messageId} onCancel={() => onAnswer(false)} initialFocus={destructive ? cancelRef : okRef}>
      <p className="dialog__message" id={messageId}>
        {request.message}
      </p>
      <div className="dialog__actions">
        {isConfirm && (
          <Button ref={cancelRef} variant="ghost" onClick={() => onAnswer(false)}>
            {ko.dialog.cancel}
          </Button>
        )}
        <Button ref={okRef} variant={destructive ? 'danger' : 'primary'} onClick={() => onAnswer(true)}>
          {isConfirm ? (request.options.confirmLabel ?? ko.dialog.ok) : ko.dialog.ok}
        </Button>
      </div>
    </Dialog>
  );
}
