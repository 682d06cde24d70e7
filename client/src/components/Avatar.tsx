// A round initial standing in for a photo: the same name always gets the same colour.
const PALETTE = ['#4b63f0', '#0f9d8a', '#e0813a', '#c2477e', '#7a5af0', '#2f8fd8', '#5b8c2a', '#d0563b'];

export function avatarColor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

export function Avatar({ name, size = 44 }: { name: string; size?: number }) {
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
