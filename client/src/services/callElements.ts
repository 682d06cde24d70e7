// The page's call media elements (the hidden audio pair, the call screen's videos, the call
// bar's thumbnail), rendered by components that cannot reach the saga context: they hand them
// over here and the browser RTC service (services/rtc.ts) plays its streams through them. Apart
// from rtc.ts so that the call UI of every signed-in screen binds them without carrying the
// WebRTC code, which loads with the first call (docs/architecture.md §5 "Loading").

export interface MediaElements {
  local: HTMLAudioElement | null;
  remote: HTMLAudioElement | null;
  /** The peer's video, large (muted: its sound plays through `remote`). */
  remoteVideo?: HTMLVideoElement | null;
  /** This side's own video, small. */
  localVideo?: HTMLVideoElement | null;
  /** The call bar's live thumbnail of the peer. */
  thumbnail?: HTMLVideoElement | null;
}
export type AudioElements = MediaElements;

let elements: MediaElements = { local: null, remote: null };
let renderMedia: () => void = () => undefined;

/** The two hidden audio elements of the call UI: the local one (muted) and the remote one. */
export function bindCallAudio(audio: Pick<MediaElements, 'local' | 'remote'>): void {
  elements = { ...elements, ...audio };
  renderMedia();
}

/** The call screen's two video elements (remote large, own preview small), or nulls when it closes. */
export function bindCallVideo(video: Pick<MediaElements, 'remoteVideo' | 'localVideo' | 'thumbnail'>): void {
  elements = { ...elements, ...video };
  renderMedia();
}

/** The elements bound now. */
export function boundCallElements(): MediaElements {
  return elements;
}

/** The RTC service's render, run again whenever an element is bound or unbound (elements bound before it came are kept). */
export function onCallElementsBound(render: () => void): void {
  renderMedia = render;
}
