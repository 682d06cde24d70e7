// The one modal dialog of the app (WAI-ARIA dialog pattern): rendered above everything in a
// portal, focus moves in when it opens and back to where it was when it closes, Tab and Shift+Tab
// stay inside, Escape cancels, and the rest of the page is marked `inert` while it is open.
// Confirmations and alerts use it through useDialog (dialogs.tsx); the call overlays use it directly.
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { cx } from './classNames';

export interface DialogProps {
  /** 'alertdialog' for a message that needs an answer, 'dialog' otherwise. */
  role?: 'dialog' | 'alertdialog';
  /** Id of the element naming the dialog (its title or its message). */
  labelledBy?: string;
  /** Accessible name when nothing visible names the dialog. */
  label?: string;
  /** Id of the element with the dialog's message. */
  describedBy?: string;
  /** Escape, or a click on the backdrop: the dialog's "cancel". */
  onCancel(): void;
  /** The element to focus when the dialog opens; else the first focusable one, else the panel. */
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** Open dialogs, the top one last: only the top one answers keys. */
const openDialogs: HTMLElement[] = [];

function focusablesIn(panel: HTMLElement): HTMLElement[] {
  return Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hidden && !el.closest('[hidden]'));
}

/** Marks every other child of <body> inert (no focus, no clicks, hidden from assistive tech); returns the undo. */
function makeOthersInert(portal: HTMLElement): () => void {
  const changed: Element[] = [];
  for (const child of Array.from(document.body.children)) {
    if (child === portal || child.hasAttribute('inert')) continue;
    if (child.tagName === 'SCRIPT' || child.tagName === 'STYLE') continue;
    child.setAttribute('inert', '');
    changed.push(child);
  }
  return () => changed.forEach((el) => el.removeAttribute('inert'));
}

export function Dialog({ role = 'dialog', labelledBy, label, describedBy, onCancel, initialFocus, className, children }: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const portalRef = useRef<HTMLDivElement | null>(null);
  if (portalRef.current === null && typeof document !== 'undefined') {
    portalRef.current = document.createElement('div');
    portalRef.current.className = 'dialog-root';
  }
  // The latest onCancel without re-running the open/close effect when the parent re-renders.
  const cancelRef = useRef(onCancel);
  cancelRef.current = onCancel;

  useEffect(() => {
    const portal = portalRef.current;
    const panel = panelRef.current;
    if (!portal || !panel) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.body.appendChild(portal);
    const restoreOthers = makeOthersInert(portal);
    openDialogs.push(panel);

    const first = initialFocus?.current ?? focusablesIn(panel)[0] ?? panel;
    first.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== panel) return;
      if (event.key === 'Escape') {
        // Handled here only: the sidebar's own Escape (on window) must not fire as well.
        event.preventDefault();
        event.stopPropagation();
        cancelRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusablesIn(panel);
      const active = document.activeElement;
      if (items.length === 0) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const firstItem = items[0];
      const lastItem = items[items.length - 1];
      const outside = !(active instanceof Node) || !panel.contains(active) || active === panel;
      if (event.shiftKey && (outside || active === firstItem)) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && (outside || active === lastItem)) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    // Focus that leaves anyway (a click on the page, a script) is pulled back in.
    const onFocusIn = (event: FocusEvent) => {
      if (openDialogs[openDialogs.length - 1] !== panel) return;
      if (event.target instanceof Node && !panel.contains(event.target)) (focusablesIn(panel)[0] ?? panel).focus();
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);

    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      openDialogs.splice(openDialogs.indexOf(panel), 1);
      restoreOthers();
      portal.remove();
      if (returnTo && returnTo.isConnected) returnTo.focus();
    };
    // Opening and closing happen once per mount; initialFocus is read when it opens.
  }, []);

  if (!portalRef.current) return null;
  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) cancelRef.current();
      }}
    >
      <div
        ref={panelRef}
        className={cx('dialog', className)}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-label={labelledBy ? undefined : label}
        aria-describedby={describedBy}
        tabIndex={-1}
      >
        {children}
      </div>
    </div>,
    portalRef.current,
  );
}
