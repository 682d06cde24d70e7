// Recording a voice message in the composer (issue 27): MediaRecorder, Opus in WebM, up to 5
// minutes. Held: releasing the button sends, sliding the pointer away from it cancels. Tapped
// (or the button pressed with a key): recording goes on until '음성 메시지 보내기' or '녹음 취소'
// (Escape cancels too). The recording is uploaded with kind=voice and sent as a message of the
// room through the room saga, like any attachment.
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../../kernel/hooks';
import { attachmentUploaded } from '../roomSlice';
import { clock, koVoice } from './koVoice';
import { uploadVoice, VoiceRefused } from './uploadVoice';
import './voice.css';

export const MAX_RECORDING_MS = 5 * 60_000;
/** A hold shorter than this is a tap: the recording goes on with its buttons. */
const TAP_MS = 400;
/** The pointer this far from where it pressed cancels a held recording. */
const SLIDE_CANCEL_PX = 80;
const MIME = 'audio/webm;codecs=opus';

/** What the composer's button tells the recorder of the press that started it. */
export interface VoicePress {
  /** Where the pointer pressed; null for a key or a click (tap mode from the start). */
  at: { x: number; y: number } | null;
  /** Set by the composer: the pointer moved or was released (possibly before this chunk loaded). */
  moved?(x: number, y: number): void;
  released?(): void;
  releasedEarly?: boolean;
}

type Phase = 'starting' | 'recording' | 'sending';

export default function VoiceRecorder({ chatRoomId, press, onClose }: { chatRoomId: number; press: VoicePress; onClose(): void }) {
  const dispatch = useAppDispatch();
  const [phase, setPhase] = useState<Phase>('starting');
  const [held, setHeld] = useState(press.at !== null && !press.releasedEarly);
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);
  const startedAt = useRef(0);
  const finish = useRef<(send: boolean) => void>(() => {});
  const closed = useRef(false);

  useEffect(() => {
    let cancelled = false;
    const stopTracks = () => stream.current?.getTracks().forEach((t) => t.stop());
    const done = (send: boolean) => {
      const rec = recorder.current;
      if (closed.current) return;
      if (!rec || rec.state === 'inactive') {
        closed.current = true;
        stopTracks();
        onClose();
        return;
      }
      closed.current = true;
      rec.onstop = () => {
        stopTracks();
        const recording = new Blob(chunks.current, { type: rec.mimeType || 'audio/webm' });
        if (!send) {
          onClose();
          return;
        }
        if (Date.now() - startedAt.current < 500 || recording.size === 0) {
          setError(koVoice.tooShort);
          closed.current = false;
          setPhase('recording');
          recorder.current = null;
          return;
        }
        setPhase('sending');
        uploadVoice(chatRoomId, recording)
          .then((attachment) => {
            dispatch(attachmentUploaded({ chatRoomId, attachment }));
            onClose();
          })
          .catch((err: unknown) => {
            closed.current = false;
            recorder.current = null;
            setPhase('recording');
            setError(err instanceof VoiceRefused && err.message ? koVoice.refused(err.message) : koVoice.failed);
          });
      };
      rec.stop();
    };
    finish.current = done;
    void (async () => {
      if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia) {
        setError(koVoice.unsupported);
        return;
      }
      let media: MediaStream;
      try {
        media = await navigator.mediaDevices.getUserMedia({ audio: true });
      } catch {
        if (!cancelled) setError(koVoice.noMicrophone);
        return;
      }
      if (cancelled) {
        media.getTracks().forEach((t) => t.stop());
        return;
      }
      stream.current = media;
      const rec = new MediaRecorder(media, MediaRecorder.isTypeSupported(MIME) ? { mimeType: MIME } : undefined);
      rec.ondataavailable = (e) => {
        if (e.data.size > 0) chunks.current.push(e.data);
      };
      recorder.current = rec;
      chunks.current = [];
      startedAt.current = Date.now();
      rec.start(250);
      setPhase('recording');
    })();
    return () => {
      cancelled = true;
      const rec = recorder.current;
      if (rec && rec.state !== 'inactive') {
        rec.onstop = null;
        rec.stop();
      }
      stopTracks();
    };
    // Started once per recorder: the room and the closing callback stay the same while it is open.
  }, []);

  // The clock, and the 5-minute limit: the recording is sent when it is reached.
  useEffect(() => {
    if (phase !== 'recording' || !recorder.current) return;
    const timer = setInterval(() => {
      const ms = Date.now() - startedAt.current;
      setElapsed(ms);
      if (ms >= MAX_RECORDING_MS) finish.current(true);
    }, 250);
    return () => clearInterval(timer);
  }, [phase]);

  // The press that started it: released soon is a tap; released later sends; slid away cancels.
  useEffect(() => {
    if (!held) return;
    const at = press.at!;
    const pressedAt = Date.now();
    press.moved = (x, y) => {
      if (Math.hypot(x - at.x, y - at.y) > SLIDE_CANCEL_PX) finish.current(false);
    };
    press.released = () => {
      setHeld(false);
      if (Date.now() - pressedAt >= TAP_MS) finish.current(true);
    };
    return () => {
      press.moved = undefined;
      press.released = undefined;
    };
  }, [held, press]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') finish.current(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="voice-recorder" role="group" aria-label={koVoice.recording} data-testid="voice-recorder">
      <span className="voice-recorder__dot" aria-hidden="true" data-on={phase === 'recording' || undefined} />
      <span className="voice-recorder__time" role="timer" aria-live="off" data-testid="voice-elapsed">
        {phase === 'starting' ? koVoice.starting : phase === 'sending' ? koVoice.sending : `${clock(elapsed)} / ${clock(MAX_RECORDING_MS)}`}
      </span>
      {held && phase === 'recording' && <span className="voice-recorder__hint">{koVoice.slideToCancel}</span>}
      {error && <span className="voice-recorder__error" role="alert">{error}</span>}
      <button type="button" className="voice-recorder__button" onClick={() => finish.current(false)} disabled={phase === 'sending'}>
        {koVoice.cancel}
      </button>
      {!held && (
        <button
          type="button"
          className="voice-recorder__button voice-recorder__button--send"
          onClick={() => finish.current(true)}
          disabled={phase !== 'recording' || !recorder.current}
        >
          {koVoice.send}
        </button>
      )}
    </div>
  );
}
