// The group call's media elements: each participant tile's video and each remote participant's
// hidden audio, handed over by the components that render them (they cannot reach the saga
// context) so that the group RTC service (services/groupRtc.ts) plays its streams through them.
// Apart from groupRtc.ts so that the tiles bind them without carrying the WebRTC code.

/** A tile: a participant by user id, or this user's own preview. */
export type TileKey = number | 'me';

const videos = new Map<TileKey, HTMLVideoElement>();
const audios = new Map<number, HTMLAudioElement>();
let render: () => void = () => undefined;

function bind<K, E>(map: Map<K, E>, key: K, element: E | null): void {
  if (element) map.set(key, element);
  else map.delete(key);
  render();
}

/** A tile's video element, or null when the tile goes. */
export function bindGroupVideo(key: TileKey, element: HTMLVideoElement | null): void {
  bind(videos, key, element);
}

/** A remote participant's audio element, or null when it goes. */
export function bindGroupAudio(userId: number, element: HTMLAudioElement | null): void {
  bind(audios, userId, element);
}

export function boundGroupVideos(): ReadonlyMap<TileKey, HTMLVideoElement> {
  return videos;
}

export function boundGroupAudios(): ReadonlyMap<number, HTMLAudioElement> {
  return audios;
}

/** The service's render, run again whenever an element is bound or unbound. */
export function onGroupElementsBound(next: () => void): void {
  render = next;
}
