// What the ring tone is doing, for the overlays: a line asking for a tap when the browser's
// autoplay rules hold the sound back, and a data-ring attribute (the tone sounding) for tests.
import { koCall } from '../../i18n/koCall';
import type { CallState } from './callSlice';

export function ringAttribute(ring: CallState['ring']): string | undefined {
  if (!ring) return undefined;
  return ring.blocked ? 'blocked' : ring.tone;
}

export function RingStatus({ ring }: { ring: CallState['ring'] }) {
  if (!ring?.blocked) return null;
  return (
    <p className="call-overlay__hint" role="status" data-testid="ring-blocked">
      {koCall.soundBlocked}
    </p>
  );
}
