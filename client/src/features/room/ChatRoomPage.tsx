// /chat-room?cri= (docs/spec.md §2 chat room): the conversation, its header and its side panel.
// The room session saga does the work; this page opens and closes it and renders its state.
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Redirect, useSearchParams } from 'wouter';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { useOpenProfile } from '../../kernel/profileCard';
import { useDocumentTitle } from '../../components/documentTitle';
import { useDialog } from '../../components/dialogs';
import { MessageSearchToggle } from '../messageSearch';
import { CallButtons } from '../call';
import { GroupCallBanner, GroupCallButton } from '../groupCall';
import type { MessageActionHandlers } from './MessageExtras';
import { ko } from '../../i18n/ko';
import { koPassOn } from '../../i18n/koPassOn';
import { hideRequested } from './passOnSlice';
import { createUidStore } from '../../services/uid';
import './attachments.css';
import '../../styles/chat.css';
import './messageActions.css';
import { AttachmentArea } from './AttachmentArea';
import { readDraft, writeDraft } from './drafts';
import { Composer } from './Composer';
import { selectMessageItems } from './messageLayout';
import { MessageList, type MessageListProps } from './MessageList';
import { TypingLine } from './TypingLine';
import { selectMembersWithPresence } from './liveSlice';
import { selectUnreadByOf } from './readsSlice';
import { RoomHeader } from './RoomHeader';
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
  selectRoomSettings,
  selectRoomUsers,
  settingsChangeRequested,
  selectNotice,
  noticeRemoveRequested,
  noticeSetRequested,
} from './roomSlice';

// What a room shows only on demand comes in a chunk of its own (the room's route is near its
// 150 KiB budget): the notice banner (most rooms have none), the menu, the edit box and the reply's quote.
// The room's search panel loads when the search is first opened (the header's toggle is at hand at once).
const MessageSearchPanel = lazy(() => import(/* webpackChunkName: "message-search" */ '../messageSearch').then((m) => ({ default: m.MessageSearchPanel })));
const NoticeBanner = lazy(() => import(/* webpackChunkName: "room-extras" */ './NoticeBanner'));
const RoomDrawer = lazy(() => import(/* webpackChunkName: "room-drawer" */ './RoomDrawer').then((m) => ({ default: m.RoomDrawer })));
const RoomSidebar = lazy(() => import(/* webpackChunkName: "room-extras" */ './RoomSidebar').then((m) => ({ default: m.RoomSidebar })));
const EditComposer = lazy(() => import(/* webpackChunkName: "room-extras" */ './ComposerExtras').then((m) => ({ default: m.EditComposer })));
const ReplyPreview = lazy(() => import(/* webpackChunkName: "room-extras" */ './ComposerExtras').then((m) => ({ default: m.ReplyPreview })));
// Issue 27: the forward picker and the multi-select bar load when first used.
const loadPassOn = () => import(/* webpackChunkName: "pass-on" */ './PassOn');
const ForwardPicker = lazy(() => loadPassOn().then((m) => ({ default: m.ForwardPicker })));
const SelectionBar = lazy(() => loadPassOn().then((m) => ({ default: m.SelectionBar })));

export default function ChatRoomPage() {
  const [params] = useSearchParams();
  const chatRoomId = roomIdFrom(params);
  const aroundSeq = seqFrom(params);
  const userId = createUidStore(window.localStorage).read();
  if (userId === null) return <Redirect to={paths.login} replace />;
  if (chatRoomId === null) return <Redirect to={paths.chatList} replace />;
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
  const [drawerOpen, setDrawerOpen] = useState(false);
  const dialogs = useDialog();
  // Issue 27: the messages the forward picker is open for, and the multi-select mode's ticks.
  const [forwarding, setForwarding] = useState<readonly number[] | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number> | null>(null);
  const copied = useToast();
  const hide = useCallback(
    (messageIds: readonly number[], done?: () => void) => {
      void loadPassOn()
        .then((m) => dialogs.confirm(m.hideQuestion(messageIds.length), { confirmLabel: ko.messageActions.deleteConfirmLabel, destructive: true }))
        .then((ok) => {
          if (!ok) return;
          dispatch(hideRequested([...messageIds]));
          done?.();
        });
    },
    [dispatch, dialogs],
  );

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
      onMakeNotice: (messageId) => dispatch(noticeSetRequested(messageId)),
      passOn: {
        onCopy: (content) => {
          void Promise.resolve()
            .then(() => navigator.clipboard.writeText(content))
            .then(() => copied.show(koPassOn.copied))
            .catch(() => dialogs.alert(koPassOn.copyFailed));
        },
        onForward: (messageId) => setForwarding([messageId]),
        onHide: (messageId) => hide([messageId]),
        onSelect: (messageId) => setSelected(new Set([messageId])),
      },
    }),
    [dispatch, dialogs, hide, copied.show],
  );
  const selection = useMemo(
    () =>
      selected && {
        selected,
        onToggle: (messageId: number) =>
          setSelected((before) => {
            const next = new Set(before);
            if (next.has(messageId)) next.delete(messageId);
            else next.add(messageId);
            return next;
          }),
      },
    [selected],
  );
  const closePicker = useCallback((done: boolean) => {
    setForwarding(null);
    if (done) setSelected(null);
  }, []);
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const openDrawer = useCallback(() => {
    setSidebarOpen(false);
    setDrawerOpen(true);
  }, []);

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
              <RoomGroupCallButton chatRoomId={chatRoomId} ready={ready} />
              <MessageSearchToggle open={searchOpen} onToggle={() => setSearchOpen((o) => !o)} />
            </>
          }
        />
        {searchOpen && <RoomSearch chatRoomId={chatRoomId} onClose={() => setSearchOpen(false)} />}
        <ConnectionBanner />
        <GroupCallBanner chatRoomId={chatRoomId} />
        {ready && <RoomNotice chatRoomId={chatRoomId} userId={userId} />}
        {ready ? (
          <RoomMessages myId={userId} onNeedOlder={needOlder} actions={actions} place={{ chatRoomId, restore: aroundSeq === null }} selection={selection} />
        ) : (
          <div className="messages">
            <p className="messages__empty">{ko.app.loading}</p>
          </div>
        )}
        <TypingLine />
        <JumpingBanner />
        {selected ? (
          <Suspense fallback={null}>
            <SelectionBar
              count={selected.size}
              onForward={() => setForwarding([...selected].sort((a, b) => a - b))}
              onHide={() => hide([...selected], () => setSelected(null))}
              onCancel={() => setSelected(null)}
            />
          </Suspense>
        ) : (
          <RoomComposer chatRoomId={chatRoomId} userId={userId} ready={ready} />
        )}
        <p className="toast" role="status" aria-live="polite" data-testid="room-toast">
          {copied.text}
        </p>
        {drawerOpen && (
          <Suspense fallback={null}>
            <RoomDrawer key={chatRoomId} chatRoomId={chatRoomId} onClose={() => setDrawerOpen(false)} />
          </Suspense>
        )}
        {forwarding && (
          <Suspense fallback={null}>
            <ForwardPicker messageIds={forwarding} onClose={closePicker} />
          </Suspense>
        )}
        {sidebarOpen && (
          <Suspense fallback={null}>
            <RoomSidebarPiece ready={ready} chatRoomId={chatRoomId} myId={userId} onClose={closeSidebar} onOpenDrawer={openDrawer} />
          </Suspense>
        )}
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

/** '그룹통화' in the header of a room of two or more members (issue 25). */
function RoomGroupCallButton({ chatRoomId, ready }: { chatRoomId: number; ready: boolean }) {
  const memberCount = useAppSelector(selectMemberCount);
  return ready ? <GroupCallButton chatRoomId={chatRoomId} memberCount={memberCount} /> : null;
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
    <Suspense fallback={null}>
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
    </Suspense>
  );
}

/** The room's notice at the top (issue 26), once the room has one. */
function RoomNotice({ chatRoomId, userId }: { chatRoomId: number; userId: number }) {
  const dispatch = useAppDispatch();
  const notice = useAppSelector(selectNotice);
  if (!notice) return null;
  return (
    <Suspense fallback={null}>
      <NoticeBanner
        notice={notice}
        userId={userId}
        chatRoomId={chatRoomId}
        onRemove={() => dispatch(noticeRemoveRequested())}
        onOpen={(messageId) => dispatch(jumpRequested(messageId))}
      />
    </Suspense>
  );
}

function ConnectionBanner() {
  const connection = useAppSelector(selectRoomConnection);
  return connection === 'lost' ? <p className="banner" role="status">{ko.room.reconnecting}</p> : null;
}

function RoomMessages({ myId, onNeedOlder, actions, place, selection }: { myId: number; onNeedOlder(): void; actions: MessageActionHandlers; place: MessageListProps['place']; selection: MessageListProps['selection'] }) {
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
      place={place}
      selection={selection}
    />
  );
}

function JumpingBanner() {
  const jumping = useAppSelector(selectJumping);
  return jumping ? <p className="banner" role="status">{ko.messageActions.findingOriginal}</p> : null;
}

/** The composer, the edit box in its place while the user edits a message, and the reply's quote above it. */
function RoomComposer({ chatRoomId, userId, ready }: { chatRoomId: number; userId: number; ready: boolean }) {
  const dispatch = useAppDispatch();
  // Read as the composer starts: on opening the room, and again after an edit.
  const draft = useCallback(() => readDraft(window.localStorage, userId, chatRoomId), [userId, chatRoomId]);
  const keepDraft = useCallback((text: string) => writeDraft(window.localStorage, userId, chatRoomId, text), [userId, chatRoomId]);
  const editing = useAppSelector(selectEditing);
  const replyTo = useAppSelector(selectReplyTo);
  const members = useAppSelector(selectRoomUsers);
  // Escape at the composer drops the reply being written (the edit box handles its own).
  const onComposerKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && replyTo) dispatch(replyCancelled());
  };
  if (editing) {
    return (
      <Suspense fallback={null}>
        <EditComposer
          key={editing.messageId}
          messageId={editing.messageId}
          initial={editing.content}
          onSave={(messageId, content) => dispatch(editSubmitted({ messageId, content }))}
          onCancel={() => dispatch(editCancelled())}
        />
      </Suspense>
    );
  }
  return (
    <div className="composer-wrap" onKeyDown={onComposerKeyDown}>
      {replyTo && (
        <Suspense fallback={null}>
          <ReplyPreview quote={replyTo} onCancel={() => dispatch(replyCancelled())} />
        </Suspense>
      )}
      <AttachmentArea chatRoomId={chatRoomId}>
        <Composer
          onSend={(content) => dispatch(messageSubmitted(content))}
          onTyping={() => dispatch(typingNoticed())}
          focusWhen={ready}
          initialText={draft}
          onTextChange={keepDraft}
          members={members}
          myId={userId}
          chatRoomId={chatRoomId}
        />
      </AttachmentArea>
    </div>
  );
}

function RoomSidebarPiece({ ready, chatRoomId, myId, onClose, onOpenDrawer }: { ready: boolean; chatRoomId: number; myId: number; onClose(): void; onOpenDrawer(): void }) {
  const dispatch = useAppDispatch();
  const members = useAppSelector(selectMembersWithPresence);
  const notification = useAppSelector(selectNotification);
  const settings = useAppSelector(selectRoomSettings);
  const openProfile = useOpenProfile();
  return (
    <RoomSidebar
      settings={settings}
      onOpenProfile={openProfile ? (user) => openProfile({ userId: user.userId, name: user.name, photoVersion: user.photoVersion, statusMessage: user.statusMessage }) : undefined}
      onChangeSettings={(change) => dispatch(settingsChangeRequested(change))}
      memberActions={(user) => <CallButtons peer={{ userId: user.userId, name: user.name }} />}
      users={ready ? members : NO_MEMBERS}
      myId={myId}
      invitePath={invitePath(chatRoomId)}
      notification={notification}
      onNotify={() => dispatch(notificationConfirmed())}
      onLeave={() => dispatch(leaveConfirmed())}
      onClose={onClose}
      onOpenDrawer={onOpenDrawer}
    />
  );
}

const NO_MEMBERS: never[] = [];

/** A short confirmation ('복사되었습니다.') that clears itself after two seconds; a new one restarts the time. */
function useToast(): { text: string; show: (text: string) => void } {
  const [shown, setShown] = useState<{ text: string } | null>(null);
  useEffect(() => {
    if (!shown) return undefined;
    const timer = setTimeout(() => setShown(null), 2000);
    return () => clearTimeout(timer);
  }, [shown]);
  const show = useCallback((text: string) => setShown({ text }), []);
  return { text: shown?.text ?? '', show };
}
