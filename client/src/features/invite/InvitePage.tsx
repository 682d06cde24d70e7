// /add-user-to-chat?cri= (SPEC.md §2 invite): search people and add them to the room.
import { useEffect } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { Button } from '../../components/Button';
import { ko } from '../../i18n/ko';
import { createUidStore } from '../auth/uid';
import { BackIcon, CheckIcon, SearchIcon } from '../room/icons';
import { chatRoomPath, roomIdFrom } from '../room/roomPaths';
import '../room/chat.css';
import { SearchBar } from '../userSearch/SearchBar';
import { UserRow } from '../userSearch/UserRow';
import { addRequested, inviteOpened, inviteSearchSubmitted, selectInvite } from './inviteSlice';

export default function InvitePage() {
  const [params] = useSearchParams();
  const chatRoomId = roomIdFrom(params);
  const uid = createUidStore(window.localStorage).read();
  if (uid === null) return <Navigate to={paths.login} replace />;
  if (chatRoomId === null) return <Navigate to={paths.chatList} replace />;
  return <Invite chatRoomId={chatRoomId} />;
}

function Invite({ chatRoomId }: { chatRoomId: number }) {
  const dispatch = useAppDispatch();
  const { results, searching, adding } = useAppSelector(selectInvite);

  useEffect(() => {
    dispatch(inviteOpened());
  }, [dispatch, chatRoomId]);

  return (
    <div className="screen-wrap">
      <main className="screen">
        <header className="screen__header">
          <Link className="icon-btn" to={chatRoomPath(chatRoomId)} aria-label={ko.invite.back} title={ko.invite.back}>
            <BackIcon />
          </Link>
          <h1 className="screen__title">{ko.invite.title}</h1>
        </header>
        <SearchBar
          placeholder={ko.invite.placeholder}
          buttonLabel={ko.invite.search}
          busy={searching}
          onSearch={(keyword) => dispatch(inviteSearchSubmitted({ chatRoomId, keyword }))}
        />
        <div className="screen__body">
          {results.length === 0 ? (
            <div className="empty-state">
              <span className="empty-state__icon"><SearchIcon /></span>
              <p>{ko.invite.emptyHint}</p>
            </div>
          ) : (
            <ul className="user-rows">
              {results.map((user) => (
                <UserRow key={user.userId} user={user}>
                  {user.isInChat ? (
                    <span className="in-chat" data-testid="in-chat">
                      <CheckIcon />
                      {ko.invite.inChat}
                    </span>
                  ) : (
                    <Button
                      variant="secondary"
                      className="user-row__action"
                      busy={adding === user.userId}
                      onClick={() => dispatch(addRequested({ chatRoomId, userId: user.userId }))}
                    >
                      {ko.invite.add}
                    </Button>
                  )}
                </UserRow>
              ))}
            </ul>
          )}
        </div>
      </main>
    </div>
  );
}
