// /find-user (docs/spec.md §2 user search): find someone by name or e-mail and start a chat.
import { useEffect, type ReactNode } from 'react';
import type { UserSummary } from '@common/api';
import { Redirect } from 'wouter';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { Button } from '../../components/Button';
import { ko } from '../../i18n/ko';
import { koHome } from '../../i18n/koHome';
import { createUidStore } from '../../services/uid';
import '../../styles/chat.css';
import { UserSearchScreen } from './UserSearchScreen';
import { selectUserSearch, startChatRequested, userSearchOpened, userSearchSubmitted } from './userSearchSlice';

export interface FindUserPageProps {
  /** What else a result offers beside starting a chat (the call buttons, wired in by app/). */
  peerActions?: (peer: { userId: number; name: string }) => ReactNode;
  /** Opens the person's profile card (the friends feature's, wired in by app/). */
  onOpenProfile?: (person: UserSummary) => void;
}

export default function FindUserPage({ peerActions, onOpenProfile }: FindUserPageProps) {
  const myId = createUidStore(window.localStorage).read();
  // docs/spec.md §6: without a stored uid the screen goes to /login at once.
  if (myId === null) return <Redirect to={paths.login} replace />;
  return <FindUser myId={myId} peerActions={peerActions} onOpenProfile={onOpenProfile} />;
}

function FindUser({ myId, peerActions, onOpenProfile }: { myId: number } & FindUserPageProps) {
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
      minCharsHint={koHome.minChars}
      results={results}
      onOpen={onOpenProfile}
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
