// The number beside a message (issue 11): how many members have not read it yet; nothing once
// all have.
import { useCallback } from 'react';
import { useAppSelector } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import { unreadBy } from './readCounts';
import { selectReadPositions } from './readsSlice';
import { selectRoomUsers } from './roomSlice';

export function ReadCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="msg__read-count" aria-label={ko.room.unreadBy(count)} data-testid="read-count">
      {count}
    </span>
  );
}

/** For the open room: how many members have not read the message with a given seq. Live. */
export function useUnreadByOf(): (seq: number) => number {
  const users = useAppSelector(selectRoomUsers);
  const positions = useAppSelector(selectReadPositions);
  return useCallback((seq: number) => unreadBy(users.map((u) => u.userId), positions, seq), [users, positions]);
}
