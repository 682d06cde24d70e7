// The call bar's live thumbnail of the peer's video, handed to the RTC service like the overlay's
// video elements (services/rtc.ts).
import { useEffect, useRef } from 'react';
import { bindCallVideo } from '../../services/callElements';

/** The call bar's live thumbnail of the peer's video. */
export function CallThumbnail() {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    bindCallVideo({ thumbnail: ref.current });
    return () => bindCallVideo({ thumbnail: null });
  }, []);
  return <video ref={ref} className="call-bar__thumbnail" data-testid="call-bar-video" autoPlay playsInline muted aria-hidden="true" />;
}
