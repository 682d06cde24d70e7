// A voice message in the room (issue 27): play/pause, its waveform (64 levels from the server)
// that seeks where it is tapped or by arrow keys, the speed (1×, 1.5×, 2×) and the time
// (elapsed while playing, the length otherwise).
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Attachment } from '@common/api';
import { clock, koVoice } from './koVoice';
import './voice.css';

const SPEEDS = [1, 1.5, 2] as const;

export default function VoicePlayer({ attachment }: { attachment: Attachment }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const lengthMs = attachment.durationMs ?? 0;
  const levels = attachment.waveform ?? [];
  const fraction = lengthMs > 0 ? Math.min(1, position / lengthMs) : 0;

  useEffect(() => {
    if (audio.current) audio.current.playbackRate = speed;
  }, [speed]);

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => setPlaying(false));
    else el.pause();
  };
  const seekTo = (ms: number) => {
    const el = audio.current;
    if (!el) return;
    const to = Math.max(0, Math.min(lengthMs, ms));
    el.currentTime = to / 1000;
    setPosition(to);
  };
  const onWavePointer = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width > 0) seekTo(((e.clientX - box.left) / box.width) * lengthMs);
  };
  const onWaveKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowUp' ? 5000 : e.key === 'ArrowLeft' || e.key === 'ArrowDown' ? -5000 : null;
    if (e.key === 'Home') seekTo(0);
    else if (e.key === 'End') seekTo(lengthMs);
    else if (step !== null) seekTo(position + step);
    else return;
    e.preventDefault();
  };
  const nextSpeed = () => setSpeed(SPEEDS[(SPEEDS.indexOf(speed) + 1) % SPEEDS.length]);

  return (
    <div className="voice-player" role="group" aria-label={koVoice.player} data-testid="voice-player">
      <button type="button" className="voice-player__play" aria-label={playing ? koVoice.pause : koVoice.play} onClick={toggle} data-testid="voice-play">
        <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
      </button>
      <div
        className="voice-player__wave"
        role="slider"
        tabIndex={0}
        aria-label={koVoice.position}
        aria-valuemin={0}
        aria-valuemax={Math.round(lengthMs / 1000)}
        aria-valuenow={Math.round(position / 1000)}
        aria-valuetext={`${clock(position)} / ${clock(lengthMs)}`}
        onPointerDown={onWavePointer}
        onKeyDown={onWaveKey}
        data-testid="voice-wave"
      >
        {levels.map((level, i) => (
          <span
            key={i}
            className="voice-player__bar"
            style={{ height: `${Math.max(6, Math.round((level / 255) * 100))}%` }}
            data-played={(i + 0.5) / levels.length <= fraction || undefined}
          />
        ))}
      </div>
      <span className="voice-player__time" data-testid="voice-time">{clock(playing || position > 0 ? position : lengthMs)}</span>
      <button type="button" className="voice-player__speed" aria-label={koVoice.speed(speed)} onClick={nextSpeed} data-testid="voice-speed">
        {speed}×
      </button>
      <audio
        ref={audio}
        src={attachment.url}
        preload="metadata"
        data-testid="voice-audio"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          setPosition(0);
        }}
        onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime * 1000)}
      />
    </div>
  );
}
