// The group call's own late service (kernel/services.ts: a feature declares its service and
// app/lateServices.ts provides it), so that the kernel names no group-call type.
import type { GroupRtcService } from '../../services/groupRtc';

declare module '../../kernel/services' {
  interface LateServices {
    /** Peer connections with the SFU for group calls (services/groupRtc.ts, loaded with the first one). */
    groupRtc: GroupRtcService;
  }
}

export type { GroupRtcService };
