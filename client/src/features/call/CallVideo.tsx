// The call's video elements: the peer's picture (large) and this side's preview (small, movable),
// handed to the RTC service that plays the streams through them (services/rtc.ts). In the in-call
// overlay's chunk, loaded when a call starts.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { bindCallVideo } from '../../services/callElements';

/** The peer's video, muted (its sound plays through the hidden remote audio element). */
export function CallVideo({ hidden, label }: { hidden: boolean; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    bindCallVideo({ remoteVideo: ref.current });
    return () => bindCallVideo({ remoteVideo: null });
  }, []);
  return <video ref={ref} className="call-video__remote" data-testid="remote-video" aria-label={label} autoPlay playsInline muted hidden={hidden} />;
}

/** This side's own video, small in a corner; dragging moves it anywhere on the card. */
export function DraggablePreview({ label }: { label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ startX: number; startY: number; x: number; y: number } | null>(null);
  useEffect(() => {
    bindCallVideo({ localVideo: ref.current });
    return () => bindCallVideo({ localVideo: null });
  }, []);
  const onDown = (e: PointerEvent<HTMLVideoElement>) => {
    drag.current = { startX: e.clientX, startY: e.clientY, ...offset };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onMove = (e: PointerEvent<HTMLVideoElement>) => {
    const d = drag.current;
    if (d) setOffset({ x: d.x + e.clientX - d.startX, y: d.y + e.clientY - d.startY });
  };
  const onUp = () => {
    drag.current = null;
  };
  return (
    <video
      ref={ref}
      className="call-video__local"
      data-testid="local-video"
      aria-label={label}
      autoPlay
      playsInline
      muted
      style={{ transform: `translate(${offset.x}px, ${offset.y}px)` }}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
    />
  );
}
