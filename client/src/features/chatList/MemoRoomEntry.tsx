// Issue 27: the way into 나와의 채팅 before the user has one (once made, the server lists it first,
// as a row of its own). In its own lazy chunk: the list shows it only until first use.
import { useAppDispatch } from '../../kernel/hooks';
import { koMemoRoom } from '../../i18n/koMemoRoom';
import { RoomAvatar } from './RoomAvatar';
import { memoRoomRequested } from './chatListSlice';
import './memoRoom.css';

export function MemoRoomEntry() {
  const dispatch = useAppDispatch();
  return (
    <li>
      <button type="button" className="chat-row chat-row--memo" onClick={() => dispatch(memoRoomRequested())} data-testid="memo-room-entry">
        <RoomAvatar name={koMemoRoom.name} memberCount={1} />
        <span className="chat-row__main">
          <span className="chat-row__top">
            <span className="chat-row__name">{koMemoRoom.name}</span>
          </span>
          <span className="chat-row__bottom">
            <span className="chat-row__last chat-row__last--empty">{koMemoRoom.note}</span>
          </span>
        </span>
      </button>
    </li>
  );
}
