// The video call's icons, apart from icons.tsx (which the call bar on every screen carries), so
// that they ship with the screens that show them: the in-call overlay and the call buttons.
/** A video camera, struck through while off. */
export function CameraIcon({ size = 22, off = false }: { size?: number; off?: boolean }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
      <rect x="3" y="6" width="12" height="12" rx="2" />
      <path d="M15 10l6-3v10l-6-3" />
      {off && <path d="M3 3l18 18" />}
    </svg>
  );
}

/** Two arrows around a camera: the next camera. */
export function SwitchCameraIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
      <path d="M4 8h11l-3-3M20 16H9l3 3" />
    </svg>
  );
}

/** A monitor: share the screen. */
export function ScreenIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  );
}

/** A video camera for the 영상통화 buttons. */
export function VideoIcon({ size = 20 }: { size?: number }) {
  return <CameraIcon size={size} />;
}
