// /chat-room?cri= (SPEC.md §2 chat room): the conversation, its header and its side panel. The
// room session saga does the work; this page opens and closes it and renders its state.
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { useDocumentTitle } from '../../components/documentTitle';
import { ko } from '../../i18n/ko';
import { createUidStore } from '../auth/uid';
import './attachments.css';
import './chat.css';
import { AttachmentArea } from './AttachmentArea';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { useUnreadByOf } from './ReadCount';
import { TypingLine } from './TypingLine';
import { selectOnline, withPresence } from './liveSlice';
import { RoomHeader } from './RoomHeader';
import { RoomSidebar } from './RoomSidebar';
import { invitePath, roomIdFrom } from './roomPaths';
import {
  leaveConfirmed,
  messageSubmitted,
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
  const userId = createUidStore(window.localStorage).read();
  if (userId === null) return <Navigate to={paths.login} replace />;
  if (chatRoomId === null) return <Navigate to={paths.chatList} replace />;
  return <ChatRoom key={chatRoomId} chatRoomId={chatRoomId} userId={userId} />;
}

function ChatRoom({ chatRoomId, userId }: { chatRoomId: number; userId: number }) {
  const dispatch = useAppDispatch();
  const room = useAppSelector(selectRoom);
  const [sidebarOpen, setSidebarOpen] = useState(false);

  useEffect(() => {
    dispatch(roomOpened({ chatRoomId, userId }));
    return () => {
      dispatch(roomClosed());
    };
  }, [dispatch, chatRoomId, userId]);

  const needOlder = useCallback(() => dispatch(olderRequested()), [dispatch]);
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
        />
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
          />
        ) : (
          <div className="messages">
            <p className="messages__empty">{ko.app.loading}</p>
          </div>
        )}
        <TypingLine />
        <AttachmentArea chatRoomId={chatRoomId}>
          <Composer onSend={(content) => dispatch(messageSubmitted(content))} onTyping={() => dispatch(typingNoticed())} focusWhen={ready} />
        </AttachmentArea>
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
