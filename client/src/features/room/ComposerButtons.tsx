// The composer's buttons of issue 27, in the lazy room-extras chunk: '이모티콘' opens the emoji
// picker (its own lazy chunk) and puts the emoji at the caret; '음성 메시지' records a voice
// message (the lazy voice chunk): held, its release sends and sliding away cancels; tapped or
// pressed with a key, the recorder's buttons send or cancel.
import { lazy, Suspense, useRef, useState } from 'react';
import type { VoicePress } from './voice/VoiceRecorder';

const VoiceRecorder = lazy(() => import(/* webpackChunkName: "voice" */ './voice/VoiceRecorder'));
const EmojiPicker = lazy(() => import(/* webpackChunkName: "emoji" */ './emoji/EmojiPicker'));
const EMOJI_LABEL = '이모티콘';
const VOICE_LABEL = '음성 메시지';

export default function ComposerButtons({ chatRoomId, onEmoji, onEmojiClosed }: { chatRoomId: number; onEmoji(emoji: string): void; onEmojiClosed(): void }) {
  const [press, setPress] = useState<VoicePress | null>(null);
  const [picking, setPicking] = useState(false);
  const pressRef = useRef<VoicePress | null>(null);
  const startVoice = (next: VoicePress) => {
    if (pressRef.current) return;
    pressRef.current = next;
    setPress(next);
  };
  const endVoice = () => {
    pressRef.current = null;
    setPress(null);
  };
  return (
    <>
      <button type="button" className="attach-button composer__emoji" aria-label={EMOJI_LABEL} title={EMOJI_LABEL} aria-haspopup="dialog" onClick={() => setPicking(true)}>
        <span aria-hidden="true">☺</span>
      </button>
      {picking && (
        <Suspense fallback={null}>
          <EmojiPicker
            onPick={onEmoji}
            onClose={() => {
              setPicking(false);
              onEmojiClosed();
            }}
          />
        </Suspense>
      )}
      {press && (
        <Suspense fallback={null}>
          <VoiceRecorder chatRoomId={chatRoomId} press={press} onClose={endVoice} />
        </Suspense>
      )}
      <button
        type="button"
        className="attach-button composer__voice"
        aria-label={VOICE_LABEL}
        aria-pressed={press !== null}
        title={VOICE_LABEL}
        data-testid="voice-button"
        // Held: the button keeps the pointer (captured), so its moves and release reach the recorder.
        onPointerDown={(e) => {
          if (e.button !== 0 || pressRef.current) return;
          e.preventDefault();
          e.currentTarget.setPointerCapture(e.pointerId);
          startVoice({ at: { x: e.clientX, y: e.clientY } });
        }}
        onPointerMove={(e) => pressRef.current?.moved?.(e.clientX, e.clientY)}
        onPointerUp={() => {
          const current = pressRef.current;
          if (!current) return;
          if (current.released) current.released();
          else current.releasedEarly = true;
        }}
        // The pointer lost (the page scrolled, a call came in): a held recording is cancelled.
        onPointerCancel={() => pressRef.current?.moved?.(Infinity, Infinity)}
        // A long press on a phone records; it opens no context menu, and the page does not pan under it.
        onContextMenu={(e) => e.preventDefault()}
        style={{ touchAction: 'none' }}
        // A pointer's press is handled above (a short one becomes a tapped recording), so the click
        // that ends it is not another start: only a key's click (Enter, Space; detail 0) starts one.
        onClick={(e) => {
          if (e.detail === 0) startVoice({ at: null });
        }}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="M12 3a3 3 0 00-3 3v6a3 3 0 006 0V6a3 3 0 00-3-3zM5 11a7 7 0 0014 0M12 18v3" />
        </svg>
      </button>
    </>
  );
}
