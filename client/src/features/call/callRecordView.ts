// What a call record's bubble says to its viewer (docs/spec.md call records): pure, and on its own
// so that the room's chunk carries it without the call's rules.
import type { CallMedia, CallSystemEvent } from '@common/api';
import { callDuration } from '@common/system-text';

/** What a call record's bubble says to this viewer (docs/spec.md call records). */
export interface CallRecordView {
  /** 발신 음성통화, 부재중 전화, 취소된 통화 … */
  title: string;
  /** mm:ss of an answered call, else null. */
  duration: string | null;
  media: CallMedia;
  outgoing: boolean;
  /** A call this viewer did not pick up (shown in red). */
  missed: boolean;
}

export function callRecordView(event: CallSystemEvent, me: number, texts: Record<'outgoing' | 'incoming' | 'missed' | 'noAnswer' | 'cancelled' | 'rejectedByPeer' | 'rejectedByMe', string>, kind: Record<CallMedia, string>): CallRecordView {
  const { media, outcome, durationSec } = event;
  const outgoing = event.callerUserId === me;
  const view = (title: string, missed = false, duration: string | null = null): CallRecordView => ({ title, duration, media, outgoing, missed });
  switch (outcome) {
    case 'answered':
      return view(`${outgoing ? texts.outgoing : texts.incoming} ${kind[media]}`, false, callDuration(durationSec));
    case 'missed':
      return outgoing ? view(texts.noAnswer) : view(texts.missed, true);
    case 'cancelled':
      return outgoing ? view(texts.cancelled) : view(texts.missed, true);
    case 'rejected':
      return view(outgoing ? texts.rejectedByPeer : texts.rejectedByMe);
  }
}
