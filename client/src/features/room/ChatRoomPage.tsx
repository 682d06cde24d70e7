// /chat-room?cri= (docs/spec.md §2 chat room): the conversation, its header and its side panel.
// The room session saga does the work; this page opens and closes it and renders its state.
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { useDocumentTitle } from '../../components/documentTitle';
import { useDialog } from '../../components/dialogs';
import { MessageSearchPanel, MessageSearchToggle } from '../messageSearch';
import { CallButtons } from '../call';
import { EditComposer, ReplyPreview } from './ComposerExtras';
import type { MessageActionHandlers } from './MessageExtras';
import { ko } from '../../i18n/ko';
import { createUidStore } from '../../services/uid';
import './attachments.css';
import '../../styles/chat.css';
import './messageActions.css';
import { AttachmentArea } from './AttachmentArea';
import { Composer } from './Composer';
import { selectMessageItems } from './messageLayout';
import { MessageList } from './MessageList';
import { TypingLine } from './TypingLine';
import { selectMembersWithPresence } from './liveSlice';
import { selectUnreadByOf } from './readsSlice';
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
  selectEditing,
  selectCallPeer,
  selectFocus,
  selectHasOlder,
  selectJumping,
  selectLoadingOlder,
  selectMemberCount,
  selectMessageIds,
  selectNotification,
  selectReplyTo,
  selectRoomConnection,
  selectRoomName,
  selectRoomReady,
  selectRoomUnseen,
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

// The screen is cut into the pieces below, each subscribed to the part of the room it renders
// (the selectors of roomSlice, readsSlice, liveSlice): a new message re-renders the list, not
// the header, the composer or the side panel; a typing or read event, only its own line.

function ChatRoom({ chatRoomId, userId, aroundSeq }: { chatRoomId: number; userId: number; aroundSeq: number | null }) {
  const dispatch = useAppDispatch();
  const ready = useAppSelector((state: Parameters<typeof selectRoomReady>[0]) => selectRoomReady(state, chatRoomId));
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
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);

  return (
    <div className="screen-wrap">
      <RoomTitle ready={ready} />
      <main className="screen">
        <RoomHeaderPiece
          ready={ready}
          onOpenSidebar={() => setSidebarOpen(true)}
          extraActions={
            <>
              <RoomCallButtons />
              <MessageSearchToggle open={searchOpen} onToggle={() => setSearchOpen((o) => !o)} />
            </>
          }
        />
        {searchOpen && <RoomSearch chatRoomId={chatRoomId} onClose={() => setSearchOpen(false)} />}
        <ConnectionBanner />
        {ready ? (
          <RoomMessages myId={userId} onNeedOlder={needOlder} actions={actions} />
        ) : (
          <div className="messages">
            <p className="messages__empty">{ko.app.loading}</p>
          </div>
        )}
        <TypingLine />
        <JumpingBanner />
        <RoomComposer chatRoomId={chatRoomId} ready={ready} />
        {sidebarOpen && <RoomSidebarPiece ready={ready} chatRoomId={chatRoomId} myId={userId} onClose={closeSidebar} />}
      </main>
    </div>
  );
}

/** The tab title: the room's name once loaded, with the count of messages that came unseen. */
function RoomTitle({ ready }: { ready: boolean }) {
  const roomName = useAppSelector(selectRoomName);
  const unseen = useAppSelector(selectRoomUnseen);
  useDocumentTitle(ready ? roomName : null, unseen);
  return null;
}

/** 음성통화 and 영상통화 in the header of a two-person room (docs/spec.md §4 Call). */
function RoomCallButtons() {
  const peer = useAppSelector(selectCallPeer);
  return peer ? <CallButtons peer={peer} /> : null;
}

function RoomHeaderPiece({ ready, onOpenSidebar, extraActions }: { ready: boolean; onOpenSidebar(): void; extraActions: ReactNode }) {
  const dispatch = useAppDispatch();
  const roomName = useAppSelector(selectRoomName);
  const memberCount = useAppSelector(selectMemberCount);
  return (
    <RoomHeader
      roomName={ready ? roomName : ''}
      memberCount={ready ? memberCount : 0}
      onRename={(name) => dispatch(renameSubmitted(name))}
      onOpenSidebar={onOpenSidebar}
      extraActions={extraActions}
    />
  );
}

/** The room's message search; a result already held is scrolled to rather than opened anew. */
function RoomSearch({ chatRoomId, onClose }: { chatRoomId: number; onClose(): void }) {
  const dispatch = useAppDispatch();
  const heldIds = useAppSelector(selectMessageIds);
  return (
    <MessageSearchPanel
      scope="room"
      chatRoomId={chatRoomId}
      onClose={onClose}
      onOpenHeld={(messageId) => {
        if (!heldIds.includes(messageId)) return false;
        dispatch(focused(messageId));
        return true;
      }}
    />
  );
}

function ConnectionBanner() {
  const connection = useAppSelector(selectRoomConnection);
  return connection === 'lost' ? <p className="banner" role="status">{ko.room.reconnecting}</p> : null;
}

function RoomMessages({ myId, onNeedOlder, actions }: { myId: number; onNeedOlder(): void; actions: MessageActionHandlers }) {
  const dispatch = useAppDispatch();
  const items = useAppSelector(selectMessageItems);
  const hasOlder = useAppSelector(selectHasOlder);
  const loadingOlder = useAppSelector(selectLoadingOlder);
  const unreadByOf = useAppSelector(selectUnreadByOf);
  const focus = useAppSelector(selectFocus);
  const callPeer = useAppSelector(selectCallPeer);
  return (
    <MessageList
      callPeer={callPeer}
      items={items}
      myId={myId}
      hasOlder={hasOlder}
      loadingOlder={loadingOlder}
      onNeedOlder={onNeedOlder}
      unreadByOf={unreadByOf}
      onResend={(clientMsgId) => dispatch(resendRequested(clientMsgId))}
      onDelete={(clientMsgId) => dispatch(unsentDeleted(clientMsgId))}
      actions={actions}
      focus={focus}
    />
  );
}

function JumpingBanner() {
  const jumping = useAppSelector(selectJumping);
  return jumping ? <p className="banner" role="status">{ko.messageActions.findingOriginal}</p> : null;
}

/** The composer, the edit box in its place while the user edits a message, and the reply's quote above it. */
function RoomComposer({ chatRoomId, ready }: { chatRoomId: number; ready: boolean }) {
  const dispatch = useAppDispatch();
  const editing = useAppSelector(selectEditing);
  const replyTo = useAppSelector(selectReplyTo);
  // Escape at the composer drops the reply being written (the edit box handles its own).
  const onComposerKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && replyTo) dispatch(replyCancelled());
  };
  if (editing) {
    return (
      <EditComposer
        key={editing.messageId}
        messageId={editing.messageId}
        initial={editing.content}
        onSave={(messageId, content) => dispatch(editSubmitted({ messageId, content }))}
        onCancel={() => dispatch(editCancelled())}
      />
    );
  }
  return (
    <div className="composer-wrap" onKeyDown={onComposerKeyDown}>
      {replyTo && <ReplyPreview quote={replyTo} onCancel={() => dispatch(replyCancelled())} />}
      <AttachmentArea chatRoomId={chatRoomId}>
        <Composer onSend={(content) => dispatch(messageSubmitted(content))} onTyping={() => dispatch(typingNoticed())} focusWhen={ready} />
      </AttachmentArea>
    </div>
  );
}

function RoomSidebarPiece({ ready, chatRoomId, myId, onClose }: { ready: boolean; chatRoomId: number; myId: number; onClose(): void }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector(selectMembersWithPresence);
  const notification = useAppSelector(selectNotification);
  return (
    <RoomSidebar
      memberActions={(user) => <CallButtons peer={{ userId: user.userId, name: user.name }} />}
      users={ready ? members : NO_MEMBERS}
      myId={myId}
      invitePath={invitePath(chatRoomId)}
      notification={notification}
      onNotify={() => dispatch(notificationConfirmed())}
      onLeave={() => dispatch(leaveConfirmed())}
      onClose={onClose}
    />
  );
}

const NO_MEMBERS: never[] = [];
