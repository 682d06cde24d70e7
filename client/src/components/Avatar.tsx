// A person's picture: their profile photo when they have one (docs/protocol.md, profiles), else a
// round initial whose colour the same name always gets.
import { api } from '@common/api';

const PALETTE = ['#4b63f0', '#0f9d8a', '#e0813a', '#c2477e', '#7a5af0', '#2f8fd8', '#5b8c2a', '#d0563b'];

export function avatarColor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** Whose photo, and which version of it: the version in the address lets the browser keep it for good. */
export interface AvatarPhoto {
  userId: number;
  photoVersion: string | null | undefined;
}

/** The photo's address at a size; null when the person has no photo. */
export function photoUrl(photo: AvatarPhoto | undefined, size: 'small' | 'large' = 'small'): string | null {
  if (!photo?.photoVersion) return null;
  return `${api.photoOf(photo.userId)}?size=${size}&v=${encodeURIComponent(photo.photoVersion)}`;
}

export function Avatar({ name, size = 44, photo }: { name: string; size?: number; photo?: AvatarPhoto }) {
  const src = photoUrl(photo, size > 64 ? 'large' : 'small');
  if (src) {
    return <img className="avatar avatar--photo" src={src} alt="" aria-hidden="true" width={size} height={size} loading="lazy" decoding="async" />;
  }
  const initial = [...name.trim()][0] ?? '?';
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.42, background: avatarColor(name) }}
    >
      {initial.toUpperCase()}
    </span>
  );
}
