// /add-user-to-chat?cri= (docs/spec.md §2 invite): search people and add them to the room.
import { useEffect } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { Button } from '../../components/Button';
import { ko } from '../../i18n/ko';
import { koRoomMarks } from '../../i18n/koRoomMarks';
import { createUidStore } from '../../services/uid';
import { CheckIcon } from '../../components/icons';
import { chatRoomPath, roomIdFrom } from '../../kernel/roomPaths';
import '../../styles/chat.css';
import { UserSearchScreen } from '../userSearch';
import { addRequested, inviteOpened, inviteSearchSubmitted, selectInvite } from './inviteSlice';

export default function InvitePage() {
  const [params] = useSearchParams();
  const chatRoomId = roomIdFrom(params);
  const uid = createUidStore(window.localStorage).read();
  if (uid === null) return <Redirect to={paths.login} replace />;
  if (chatRoomId === null) return <Redirect to={paths.chatList} replace />;
  return <Invite chatRoomId={chatRoomId} />;
}

function Invite({ chatRoomId }: { chatRoomId: number }) {
  const dispatch = useAppDispatch();
  const { results, searching, searched, adding } = useAppSelector(selectInvite);

  useEffect(() => {
    dispatch(inviteOpened());
  }, [dispatch, chatRoomId]);

  return (
    <UserSearchScreen
      back={{ to: chatRoomPath(chatRoomId), label: ko.invite.back }}
      title={ko.invite.title}
      placeholder={ko.invite.placeholder}
      searchLabel={ko.invite.search}
      searching={searching}
      searched={searched}
      onSearch={(keyword) => dispatch(inviteSearchSubmitted({ chatRoomId, keyword }))}
      emptyHint={ko.invite.emptyHint}
      note={koRoomMarks.invite.privatePast}
      results={results}
      renderAction={(user) =>
        user.isInChat ? (
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
        )
      }
    />
  );
}
