// The number beside a message: how many members have not read it yet; nothing once
// all have. The counts come from readsSlice's selectUnreadByOf.
import { ko } from '../../i18n/ko';

export function ReadCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="msg__read-count" aria-label={ko.room.unreadBy(count)} data-testid="read-count">
      {count}
    </span>
  );
}
