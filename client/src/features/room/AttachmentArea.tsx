// Sending photos and files from the composer: the attach button, pasting an image (or file)
// into the message box and dropping files on the composer all start an upload; its progress
// shows above the composer with a cancel button. When the server holds the file, the room
// saga sends it as a message of the room, through the pending sends like a typed message (so
// one that finished offline goes out when the connection returns). Files over 25 MiB are
// refused before uploading. Ours (issue 27): several photos at once go up as a queue with one
// progress (photoQueue.ts) and are sent as one message of up to 30 photos.
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import { useAppDispatch } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import type { Progress } from './photoQueue';
import { attachmentUploaded } from './roomSlice';


/** The upload's code comes with the first file sent: most visits to a room send none. */
const loadUpload = () => import(/* webpackChunkName: "upload" */ './photoQueue');

export function AttachmentArea({ chatRoomId, children }: { chatRoomId: number; children: ReactNode }) {
  const dispatch = useAppDispatch();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const current = useRef<{ cancel(): void } | null>(null);

  // Leaving the room cancels an upload still running.
  useEffect(() => () => current.current?.cancel(), []);

  const send = useCallback(async (files: File[]) => {
    setError(null);
    let loaded: Awaited<ReturnType<typeof loadUpload>>;
    try {
      loaded = await loadUpload();
    } catch {
      setError(ko.attachment.failed); // the chunk could not be fetched (offline)
      return;
    }
    await loaded.sendFiles(chatRoomId, files, {
      progress: setProgress,
      error: setError,
      running: (upload) => { current.current = upload; },
      uploaded: (attachment, attachments) => dispatch(attachmentUploaded({ chatRoomId, attachment, ...(attachments ? { attachments } : {}) })),
    });
  }, [chatRoomId, dispatch]);

  const onPaste = (e: ClipboardEvent) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0) return; // text pastes as text
    e.preventDefault();
    void send(files);
  };
  const onDragOver = (e: DragEvent) => {
    if (![...e.dataTransfer.types].includes('Files')) return;
    e.preventDefault();
    setDragging(true);
  };
  const onDrop = (e: DragEvent) => {
    setDragging(false);
    const files = [...e.dataTransfer.files];
    if (files.length === 0) return;
    e.preventDefault();
    void send(files);
  };

  return (
    <div className="attach-area" onPaste={onPaste} onDragOver={onDragOver} onDragLeave={() => setDragging(false)} onDrop={onDrop} data-dragging={dragging || undefined}>
      {progress && (
        <div className="upload-status" role="status" data-testid="upload-status">
          <span className="upload-status__label">{progress.label}</span>
          <progress className="upload-status__bar" max={1} value={progress.fraction} />
          <button type="button" className="upload-status__cancel" onClick={() => progress.cancel()}>
            {ko.attachment.cancel}
          </button>
        </div>
      )}
      {error && <p className="upload-status upload-status--error" role="alert">{error}</p>}
      {dragging && <p className="attach-area__drop">{ko.attachment.dropHere}</p>}
      <div className="attach-area__row">
        <button type="button" className="attach-button" aria-label={ko.attachment.attach} title={ko.attachment.attach} onClick={() => input.current?.click()}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M21 11.5l-8.6 8.6a5 5 0 01-7-7l8.6-8.6a3.3 3.3 0 014.7 4.7l-8.6 8.6a1.7 1.7 0 01-2.4-2.4l7.9-7.9" />
          </svg>
        </button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void send(files);
          }}
        />
        {children}
      </div>
    </div>
  );
}
