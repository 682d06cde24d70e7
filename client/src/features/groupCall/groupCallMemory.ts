// The group call this tab is in, kept in the tab's session storage while it is (issue 25): a
// reload loses the page's connections but not the server's place for it (the reconnect grace),
// so the reloaded page reads what it was in and joins that call again by itself (groupCallSaga).
// Session storage: per tab, so another tab of the same user never joins a call it was not in.
import type { CallMedia } from '@common/api';

declare module '../../kernel/services' {
  interface LateServices {
    /** The tab's own storage, kept across its reloads (window.sessionStorage in the browser). */
    groupCallStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  }
}

export interface RememberedGroupCall {
  chatRoomId: number;
  callId: string;
  media: CallMedia;
}

type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const groupCallKey = (me: number) => `groupCall:${me}`;

/** The call this tab was in, or null (nothing kept, or something that is not one: storage is anyone's to edit). */
export function rememberedGroupCall(storage: TabStorage, me: number): RememberedGroupCall | null {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(groupCallKey(me)) ?? 'null');
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (!Number.isSafeInteger(v.chatRoomId) || (v.chatRoomId as number) <= 0) return null;
  if (typeof v.callId !== 'string' || v.callId.length === 0 || v.callId.length > 100) return null;
  if (v.media !== 'audio' && v.media !== 'video') return null;
  return { chatRoomId: v.chatRoomId as number, callId: v.callId, media: v.media };
}

/** Storage that refuses (full, or turned off) only costs the rejoin after a reload. */
export function rememberGroupCall(storage: TabStorage, me: number, call: RememberedGroupCall): void {
  try {
    storage.setItem(groupCallKey(me), JSON.stringify(call));
  } catch {
    /* no rejoin after a reload */
  }
}

export function forgetGroupCall(storage: TabStorage, me: number): void {
  try {
    storage.removeItem(groupCallKey(me));
  } catch {
    /* nothing kept */
  }
}
