// /chat-room?cri= (SPEC.md §2 chat room): the conversation, its header and its side panel. The
// room session saga does the work; this page opens and closes it and renders its state.
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { useDocumentTitle } from '../../components/documentTitle';
import { useDialog } from '../../components/dialogs';
import { MessageSearchPanel, MessageSearchToggle } from '../messageSearch';
import { EditComposer, ReplyPreview } from './ComposerExtras';
import type { MessageActionHandlers } from './MessageExtras';
import { ko } from '../../i18n/ko';
import { createUidStore } from '../../services/uid';
import './attachments.css';
import '../../styles/chat.css';
import './messageActions.css';
import { AttachmentArea } from './AttachmentArea';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { useUnreadByOf } from './ReadCount';
import { TypingLine } from './TypingLine';
import { selectOnline, withPresence } from './liveSlice';
import { RoomHeader } from './RoomHeader';
import { RoomSidebar } from './RoomSidebar';
import { invitePath, roomIdFrom, seqFrom } from '../../kernel/roomPaths';
import {
  deleteConfirmed,
  editCancelled,
  editStarted,
  editSubmitted,
  focused,
  jumpRequested,
  leaveConfirmed,
  messageSubmitted,
  reactionToggled,
  replyCancelled,
  replyStarted,
  notificationConfirmed,
  olderRequested,
  renameSubmitted,
  resendRequested,
  roomClosed,
  roomOpened,
  typingNoticed,
  selectRoom,
  unsentDeleted,
} from './roomSlice';

export default function ChatRoomPage() {
  const [params] = useSearchParams();
  const chatRoomId = roomIdFrom(params);
  const aroundSeq = seqFrom(params);
  const userId = createUidStore(window.localStorage).read();
  if (userId === null) return <Navigate to={paths.login} replace />;
  if (chatRoomId === null) return <Navigate to={paths.chatList} replace />;
  // A search result opens the room around its seq; another one (or none) opens it anew.
  return <ChatRoom key={`${chatRoomId}:${aroundSeq ?? ''}`} chatRoomId={chatRoomId} userId={userId} aroundSeq={aroundSeq} />;
}

function ChatRoom({ chatRoomId, userId, aroundSeq }: { chatRoomId: number; userId: number; aroundSeq: number | null }) {
  const dispatch = useAppDispatch();
  const room = useAppSelector(selectRoom);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const dialogs = useDialog();

  useEffect(() => {
    dispatch(roomOpened({ chatRoomId, userId, ...(aroundSeq !== null ? { aroundSeq } : {}) }));
    return () => {
      dispatch(roomClosed());
    };
  }, [dispatch, chatRoomId, userId, aroundSeq]);

  const needOlder = useCallback(() => dispatch(olderRequested()), [dispatch]);
  const actions = useMemo<MessageActionHandlers>(
    () => ({
      onReply: (quote) => dispatch(replyStarted(quote)),
      onEdit: (messageId, content) => dispatch(editStarted({ messageId, content })),
      onDelete: (messageId) => {
        void dialogs.confirm(ko.messageActions.deleteConfirm, { confirmLabel: ko.messageActions.deleteConfirmLabel, destructive: true }).then((ok) => {
          if (ok) dispatch(deleteConfirmed(messageId));
        });
      },
      onReact: (messageId, emoji) => dispatch(reactionToggled({ messageId, emoji })),
      onJump: (messageId) => dispatch(jumpRequested(messageId)),
    }),
    [dispatch, dialogs],
  );
  // Escape at the composer drops the reply being written (the edit box handles its own).
  const onComposerKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && room.replyTo) dispatch(replyCancelled());
  };
  const unreadByOf = useUnreadByOf();
  const online = useAppSelector(selectOnline);
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const ready = room.chatRoomId === chatRoomId && room.status === 'ready';
  useDocumentTitle(ready ? room.roomName : null, room.unseenCount);

  return (
    <div className="screen-wrap">
      <main className="screen">
        <RoomHeader
          roomName={ready ? room.roomName : ''}
          memberCount={ready ? room.users.length : 0}
          onRename={(name) => dispatch(renameSubmitted(name))}
          onOpenSidebar={() => setSidebarOpen(true)}
          extraActions={<MessageSearchToggle open={searchOpen} onToggle={() => setSearchOpen((o) => !o)} />}
        />
        {searchOpen && (
          <MessageSearchPanel
            scope="room"
            chatRoomId={chatRoomId}
            onClose={() => setSearchOpen(false)}
            onOpenHeld={(messageId) => {
              if (!room.messages.some((m) => m.messageId === messageId)) return false;
              dispatch(focused(messageId));
              return true;
            }}
          />
        )}
        {room.connection === 'lost' && <p className="banner" role="status">{ko.room.reconnecting}</p>}
        {ready ? (
          <MessageList
            messages={room.messages}
            pending={room.pending}
            myId={userId}
            hasOlder={room.hasOlder}
            loadingOlder={room.loadingOlder}
            onNeedOlder={needOlder}
            unreadByOf={unreadByOf}
            onResend={(clientMsgId) => dispatch(resendRequested(clientMsgId))}
            onDelete={(clientMsgId) => dispatch(unsentDeleted(clientMsgId))}
            actions={actions}
            focus={room.focus}
          />
        ) : (
          <div className="messages">
            <p className="messages__empty">{ko.app.loading}</p>
          </div>
        )}
        <TypingLine />
        {room.jumping && <p className="banner" role="status">{ko.messageActions.findingOriginal}</p>}
        {room.editing ? (
          <EditComposer
            key={room.editing.messageId}
            messageId={room.editing.messageId}
            initial={room.editing.content}
            onSave={(messageId, content) => dispatch(editSubmitted({ messageId, content }))}
            onCancel={() => dispatch(editCancelled())}
          />
        ) : (
          <div className="composer-wrap" onKeyDown={onComposerKeyDown}>
            {room.replyTo && <ReplyPreview quote={room.replyTo} onCancel={() => dispatch(replyCancelled())} />}
            <AttachmentArea chatRoomId={chatRoomId}>
              <Composer onSend={(content) => dispatch(messageSubmitted(content))} onTyping={() => dispatch(typingNoticed())} focusWhen={ready} />
            </AttachmentArea>
          </div>
        )}
        {sidebarOpen && (
          <RoomSidebar
            users={ready ? withPresence(room.users, online) : []}
            myId={userId}
            invitePath={invitePath(chatRoomId)}
            notification={room.notification}
            onNotify={() => dispatch(notificationConfirmed())}
            onLeave={() => dispatch(leaveConfirmed())}
            onClose={closeSidebar}
          />
        )}
      </main>
    </div>
  );
}
