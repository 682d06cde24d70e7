// '공지 숨기기' (issue 26): a member hides the room's notice on this device only. It stays hidden
// until another notice is set (a different message, or the same one set again later).
import type { RoomNotice } from '@common/api';

const key = (userId: number, chatRoomId: number) => `noticeHidden:${userId}:${chatRoomId}`;
const mark = (notice: RoomNotice) => `${notice.messageId}@${notice.setAt}`;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function isNoticeHidden(storage: Store, userId: number, chatRoomId: number, notice: RoomNotice): boolean {
  try {
    return storage.getItem(key(userId, chatRoomId)) === mark(notice);
  } catch {
    return false; // storage refused (private mode): the notice shows
  }
}

export function hideNotice(storage: Store, userId: number, chatRoomId: number, notice: RoomNotice): void {
  try {
    storage.setItem(key(userId, chatRoomId), mark(notice));
  } catch {
    // Storage refused: hidden for this visit only (the banner's own state).
  }
}
