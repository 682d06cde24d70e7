// /find-user (docs/spec.md §2 user search): find someone by name or e-mail and start a chat.
import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { Button } from '../../components/Button';
import { ko } from '../../i18n/ko';
import { createUidStore } from '../../services/uid';
import '../../styles/chat.css';
import { UserSearchScreen } from './UserSearchScreen';
import { selectUserSearch, startChatRequested, userSearchOpened, userSearchSubmitted } from './userSearchSlice';

export interface FindUserPageProps {
  /** What else a result offers beside starting a chat (the call buttons, wired in by app/). */
  peerActions?: (peer: { userId: number; name: string }) => ReactNode;
}

export default function FindUserPage({ peerActions }: FindUserPageProps) {
  const myId = createUidStore(window.localStorage).read();
  // docs/spec.md §6: without a stored uid the screen goes to /login at once.
  if (myId === null) return <Navigate to={paths.login} replace />;
  return <FindUser myId={myId} peerActions={peerActions} />;
}

function FindUser({ myId, peerActions }: { myId: number } & FindUserPageProps) {
  const dispatch = useAppDispatch();
  const { results, searching, searched, startingWith } = useAppSelector(selectUserSearch);

  useEffect(() => {
    dispatch(userSearchOpened());
  }, [dispatch]);

  return (
    <UserSearchScreen
      back={{ to: paths.chatList, label: ko.userSearch.back }}
      title={ko.userSearch.title}
      placeholder={ko.userSearch.placeholder}
      searchLabel={ko.userSearch.search}
      searching={searching}
      searched={searched}
      onSearch={(keyword) => dispatch(userSearchSubmitted(keyword))}
      emptyHint={ko.userSearch.emptyHint}
      results={results}
      renderAction={(user) =>
        user.userId === myId ? (
          <span className="user-row__self">{ko.userSearch.self}</span>
        ) : (
          <>
            {peerActions?.({ userId: user.userId, name: user.name })}
            <Button
            variant="secondary"
            className="user-row__action"
            busy={startingWith === user.userId}
            disabled={startingWith !== null}
            onClick={() => dispatch(startChatRequested(user))}
          >
            {ko.userSearch.startChat}
            </Button>
          </>
        )
      }
    />
  );
}
