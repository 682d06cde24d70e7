// Whether the user is looking at the app (docs/spec.md §4): focus or a visible tab makes it active,
// blur or a hidden tab inactive. A saga reads changes from a buffered channel.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';

export function isWindowActive(win: Window = window): boolean {
  return win.document.visibilityState !== 'hidden' && win.document.hasFocus();
}

export function windowActivityChannel(win: Window = window): EventChannel<boolean> {
  return eventChannel<boolean>((emit) => {
    const doc = win.document;
    const onFocus = () => emit(true);
    const onBlur = () => emit(false);
    const onVisibility = () => emit(doc.visibilityState !== 'hidden');
    win.addEventListener('focus', onFocus);
    win.addEventListener('blur', onBlur);
    doc.addEventListener('visibilitychange', onVisibility);
    return () => {
      win.removeEventListener('focus', onFocus);
      win.removeEventListener('blur', onBlur);
      doc.removeEventListener('visibilitychange', onVisibility);
    };
    // Only the latest state matters, but keep a few so no transition is skipped mid-burst.
  }, buffers.sliding(8));
}
