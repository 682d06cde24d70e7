// The open chat room (docs/spec.md §2 chat room, §4 chat room states): its name, participants,
// messages in room order, the user's sends still waiting for their echo, paging, presence and
// the e-mail notification button. Messages and pending sends are normalized (messages.ts); the
// selectors below are what components and sagas read, each as narrow as what it renders.
import { createAction, createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Attachment, ChatHistoryResponse, ChatMessage, ReplyQuote, RoomNotice, RoomSettings, RoomUser } from '@common/api';
import { decodeRoomNotice } from '@common/events';
import type { Reaction } from '@common/rules';
import {
  applyChangedMessages, applyDeleted, applyEdited, applyLinkPreview, applyReaction, reapplyLinkPreviews, type DeletedChange, type HeldPreviews, type EditedChange, type LinkPreviewChange, type ReactionChange,
} from './messageChanges';
import { viewerRoomName } from '@common/room-names';
import {
  applyToParticipants,
  isSystemMessage,
  mergeMessages,
  messagesAdapter,
  newestMessageId,
  newestSeq,
  oldestMessageId,
  pendingAdapter,
  unconfirmed,
  type MessagesState,
  type PendingMessage,
  type PendingState,
} from './messages';

export type RoomStatus = 'idle' | 'loading' | 'ready';
/** connecting: never subscribed yet in this visit; live: subscribed; lost: was live, reconnecting. */
export type RoomConnection = 'connecting' | 'live' | 'lost';
export type NotificationState = 'idle' | 'sending' | 'done';

export interface RoomState {
  chatRoomId: number | null;
  userId: number | null;
  status: RoomStatus;
  roomName: string;
  /**
   * Someone renamed the room (history's `renamed`): its name is the same for everyone. Null
   * when the server did not say; the name then changes only with a rename or a new history.
   */
  renamed: boolean | null;
  users: RoomUser[];
  /** One per messageId, in room order (selectMessages gives the list). */
  messages: MessagesState;
  /** One per clientMsgId, in the order written (selectPending gives the list). */
  pending: PendingState;
  hasOlder: boolean;
  loadingOlder: boolean;
  connection: RoomConnection;
  /** The window is focused or visible (docs/spec.md §4). */
  active: boolean;
  /** Messages from others received while inactive: the tab title's count. */
  unseenCount: number;
  notification: NotificationState;
  /** The message the composer replies to, as its quote will read. */
  replyTo: ReplyQuote | null;
  /** The user's own message the composer is editing. */
  editing: { messageId: number; content: string } | null;
  /** The message to scroll to and highlight (a quote or a search result); token tells repeats apart. */
  focus: { messageId: number; token: number } | null;
  /** A quote's original is being looked for in older pages. */
  jumping: boolean;
  /** The highest change counter seen (history's lastChangeSeq, then events'): a reconnect asks changedSince it. */
  lastChangeSeq: number;
  /** The room's notice (공지), from history's `notice` and the notice event; null when none. */
  notice: RoomNotice | null;
  /** The member's own settings of the room (muted, pinned); null until read. */
  settings: { muted: boolean; pinned: boolean } | null;
  /** Link previews that came as events, put back on their messages after every merge. */
  linkPreviews: HeldPreviews;
}

/** Where a room opens: at its newest messages, or around a seq (a search result). */
export interface RoomOpening { chatRoomId: number; userId: number; aroundSeq?: number }

const initialState: RoomState = {
  chatRoomId: null,
  userId: null,
  status: 'idle',
  roomName: '',
  renamed: null,
  users: [],
  messages: messagesAdapter.getInitialState(),
  pending: pendingAdapter.getInitialState(),
  hasOlder: false,
  loadingOlder: false,
  connection: 'connecting',
  active: true,
  unseenCount: 0,
  notification: 'idle',
  replyTo: null,
  editing: null,
  focus: null,
  jumping: false,
  lastChangeSeq: 0,
  notice: null,
  settings: null,
  linkPreviews: {},
};

/** History answers carry the notice (null when none); an older server's answer has no field and changes nothing. */
function takeNotice(state: RoomState, page: { notice?: unknown }): void {
  if ('notice' in page) state.notice = decodeRoomNotice(page.notice);
}

/** Whether a message counts for the tab title: a muted room's only when it mentions the member. */
export function isAudible(settings: RoomState['settings'], message: ChatMessage, userId: number | null): boolean {
  if (!settings?.muted) return true;
  return userId !== null && (message.mentions?.includes(userId) ?? false);
}

export interface OlderPage {
  messages: ChatMessage[];
  hasOlder: boolean;
}

const roomSlice = createSlice({
  name: 'room',
  initialState,
  reducers: {
    opened: (_state, action: PayloadAction<RoomOpening>) => ({
      ...initialState,
      chatRoomId: action.payload.chatRoomId,
      userId: action.payload.userId,
      status: 'loading',
    }),
    closed: () => initialState,
    historyLoaded(state, action: PayloadAction<ChatHistoryResponse>) {
      const page = action.payload;
      state.status = 'ready';
      state.roomName = page.chatRoomName;
      state.renamed = page.renamed ?? null;
      state.users = page.users;
      mergeMessages(state.messages, page.messages);
      reapplyLinkPreviews(state.messages, state.linkPreviews);
      unconfirmed(state.pending, page.messages);
      state.hasOlder = page.totalPages > 1;
      state.lastChangeSeq = Math.max(state.lastChangeSeq, page.lastChangeSeq ?? 0);
      takeNotice(state, page);
    },
    /** The page around a seq (a search result opened in its place): older ones exist when it does not start at 1. */
    aroundLoaded(state, action: PayloadAction<ChatHistoryResponse>) {
      const page = action.payload;
      state.status = 'ready';
      state.roomName = page.chatRoomName;
      state.users = page.users;
      mergeMessages(state.messages, page.messages);
      reapplyLinkPreviews(state.messages, state.linkPreviews);
      unconfirmed(state.pending, page.messages);
      state.hasOlder = (page.messages[0]?.seq ?? 1) > 1;
      state.lastChangeSeq = Math.max(state.lastChangeSeq, page.lastChangeSeq ?? 0);
      takeNotice(state, page);
    },
    /** Messages fetched after a (re)subscription; the page's name and members are the current truth. */
    caughtUp(state, action: PayloadAction<{ chatRoomName: string; renamed?: boolean; users: RoomUser[]; messages: ChatMessage[]; notice?: RoomNotice | null }>) {
      takeNotice(state, action.payload);
      state.roomName = action.payload.chatRoomName;
      state.renamed = action.payload.renamed ?? null;
      state.users = action.payload.users;
      mergeMessages(state.messages, action.payload.messages);
      reapplyLinkPreviews(state.messages, state.linkPreviews);
      unconfirmed(state.pending, action.payload.messages);
    },
    olderRequested(state) {
      if (state.hasOlder && state.status === 'ready') state.loadingOlder = true;
    },
    olderLoaded(state, action: PayloadAction<OlderPage>) {
      mergeMessages(state.messages, action.payload.messages);
      reapplyLinkPreviews(state.messages, state.linkPreviews);
      state.hasOlder = action.payload.hasOlder;
      state.loadingOlder = false;
    },
    olderFailed(state) {
      state.loadingOlder = false;
    },
    messageReceived(state, action: PayloadAction<ChatMessage>) {
      const message = action.payload;
      if (state.messages.entities[message.messageId] !== undefined) return;
      mergeMessages(state.messages, [message]);
      reapplyLinkPreviews(state.messages, state.linkPreviews);
      unconfirmed(state.pending, [message]);
      if (isSystemMessage(message)) {
        // A system message carries the room's stored name (a rename among them). A room no one
        // renamed is shown by the viewer's own name for it: the other members' names,
        // named again here as members come and go, as the server names it in history.
        const renames = message.systemEvent === undefined || message.systemEvent.type === 'renamed';
        if (message.systemEvent?.type === 'renamed') state.renamed = true;
        if (message.senderName && renames) state.roomName = message.senderName;
        state.users = applyToParticipants(state.users, message);
        if (!renames && state.renamed === false) {
          const others = state.users.filter((u) => u.userId !== state.userId).map((u) => u.name);
          state.roomName = viewerRoomName(message.senderName, false, others);
        }
      } else if (!state.active && message.senderId !== state.userId && isAudible(state.settings, message, state.userId)) {
        state.unseenCount += 1;
      }
    },
    messageSubmitted: (_state, _action: PayloadAction<string>) => {},
    /** The server holds an upload of the composer: the room saga sends it as a message (through the pending sends, like text). */
    /** An upload the server holds, to send; with `attachments` (issue 27), photos sent at once, `attachment` their first. */
    attachmentUploaded: (_state, _action: PayloadAction<{ chatRoomId: number; attachment: Attachment; attachments?: Attachment[] }>) => {},
    /** The user is typing a message (the room may be told). */
    typingNoticed: () => {},
    messageQueued(state, action: PayloadAction<PendingMessage>) {
      pendingAdapter.addOne(state.pending, action.payload);
      state.replyTo = null;
    },
    replyStarted(state, action: PayloadAction<ReplyQuote>) {
      state.replyTo = action.payload;
      state.editing = null;
    },
    replyCancelled(state) {
      state.replyTo = null;
    },
    editStarted(state, action: PayloadAction<{ messageId: number; content: string }>) {
      state.editing = action.payload;
      state.replyTo = null;
    },
    editCancelled(state) {
      state.editing = null;
    },
    /** The edited text goes out (the saga sends it); the composer leaves edit mode. */
    editSubmitted(state, _action: PayloadAction<{ messageId: number; content: string }>) {
      state.editing = null;
    },
    /** Confirmed in the dialog: delete the user's message for everyone (the saga sends it). */
    deleteConfirmed(state, action: PayloadAction<number>) {
      if (state.editing?.messageId === action.payload) state.editing = null;
      if (state.replyTo?.messageId === action.payload) state.replyTo = null;
    },
    /** The user tapped a reaction: set it if they have not given it, clear it if they have (the saga decides and sends). */
    reactionToggled: (_state, _action: PayloadAction<{ messageId: number; emoji: Reaction }>) => {},
    messageEdited(state, action: PayloadAction<EditedChange>) {
      applyEdited(state.messages, action.payload);
      if (state.notice?.messageId === action.payload.messageId) state.notice.content = action.payload.content;
      state.lastChangeSeq = Math.max(state.lastChangeSeq, action.payload.changeSeq);
    },
    messageDeleted(state, action: PayloadAction<DeletedChange>) {
      applyDeleted(state.messages, action.payload);
      // A deleted message stops being the notice (the server removes it too).
      if (state.notice?.messageId === action.payload.messageId) state.notice = null;
      state.lastChangeSeq = Math.max(state.lastChangeSeq, action.payload.changeSeq);
      if (state.editing?.messageId === action.payload.messageId) state.editing = null;
      if (state.replyTo?.messageId === action.payload.messageId) state.replyTo = null;
    },
    /** Ours (issue 27): deleted for this user only (here, or in another of their tabs): gone from the list. */
    messagesHidden(state, action: PayloadAction<number[]>) {
      messagesAdapter.removeMany(state.messages, action.payload);
      if (state.editing && action.payload.includes(state.editing.messageId)) state.editing = null;
      if (state.replyTo && action.payload.includes(state.replyTo.messageId)) state.replyTo = null;
    },
    reactionChanged(state, action: PayloadAction<ReactionChange>) {
      applyReaction(state.messages, action.payload);
      state.lastChangeSeq = Math.max(state.lastChangeSeq, action.payload.changeSeq);
    },
    linkPreviewArrived(state, action: PayloadAction<LinkPreviewChange>) {
      applyLinkPreview(state.messages, state.linkPreviews, action.payload);
    },
    /** What changedSince answered after a reconnect: whole messages, and the counter to continue from. */
    changesLoaded(state, action: PayloadAction<{ messages: ChatMessage[]; lastChangeSeq: number }>) {
      applyChangedMessages(state.messages, action.payload.messages);
      reapplyLinkPreviews(state.messages, state.linkPreviews);
      state.lastChangeSeq = Math.max(state.lastChangeSeq, action.payload.lastChangeSeq);
    },
    /** Scroll to a message (a quote's original), loading older pages until it is held. */
    jumpRequested(state, _action: PayloadAction<number>) {
      state.jumping = true;
    },
    jumpEnded(state) {
      state.jumping = false;
    },
    /** The message is held: the list scrolls to it and highlights it. */
    focused(state, action: PayloadAction<number>) {
      state.focus = { messageId: action.payload, token: (state.focus?.token ?? 0) + 1 };
      state.jumping = false;
    },
    /** Unsent messages of an earlier visit (local storage), shown as failed before anything new. */
    unsentRestored(state, action: PayloadAction<PendingMessage[]>) {
      const earlier = action.payload.filter((p) => state.pending.entities[p.clientMsgId] === undefined);
      if (earlier.length === 0) return;
      pendingAdapter.setAll(state.pending, [...earlier, ...state.pending.ids.map((id) => state.pending.entities[id])]);
    },
    /** A (re)send of a pending message went out: it is sending again until confirmed or timed out. */
    sendAttempted(state, action: PayloadAction<string>) {
      const pending = state.pending.entities[action.payload];
      if (!pending) return;
      pending.failed = false;
      pending.attempt = (pending.attempt ?? 0) + 1;
    },
    /** No confirmation in time for that send: the message is failed (unless sent again since). */
    sendTimedOut(state, action: PayloadAction<{ clientMsgId: string; attempt: number }>) {
      const pending = state.pending.entities[action.payload.clientMsgId];
      if (pending && (pending.attempt ?? 0) === action.payload.attempt) pending.failed = true;
    },
    resendRequested: (_state, _action: PayloadAction<string>) => {},
    unsentDeleted(state, action: PayloadAction<string>) {
      if (state.pending.entities[action.payload]?.failed) pendingAdapter.removeOne(state.pending, action.payload);
    },
    subscribed(state) {
      state.connection = 'live';
    },
    disconnected(state) {
      if (state.connection === 'live') state.connection = 'lost';
    },
    activityChanged(state, action: PayloadAction<boolean>) {
      state.active = action.payload;
      if (action.payload) state.unseenCount = 0;
    },
    renameSubmitted: (_state, _action: PayloadAction<string>) => {},
    renamed(state, action: PayloadAction<string>) {
      state.roomName = action.payload;
      state.renamed = true;
    },
    leaveConfirmed: () => {},
    notificationConfirmed(state) {
      if (state.notification === 'idle') state.notification = 'sending';
    },
    notificationSent(state) {
      state.notification = 'done';
    },
    notificationFailed(state) {
      state.notification = 'idle';
    },
    /** The notice event (or a PUT/DELETE of this tab's): the room's notice now. */
    noticeChanged(state, action: PayloadAction<RoomNotice | null>) {
      state.notice = action.payload;
    },
    /** '공지로 등록' on a message (the saga PUTs it; the event sets it). */
    noticeSetRequested: (_state, _action: PayloadAction<number>) => {},
    /** '공지 내리기': remove the notice for everyone. */
    noticeRemoveRequested: () => {},
    /** The member's settings of this room as the server holds them. */
    settingsLoaded(state, action: PayloadAction<{ muted: boolean; pinned: boolean }>) {
      state.settings = action.payload;
    },
    /** '알림 끄기'/'알림 켜기', '채팅방 고정'/'고정 해제' (the saga PATCHes them). */
    settingsChangeRequested: (_state, _action: PayloadAction<{ muted?: boolean; pinned?: boolean }>) => {},
  },
});

export const {
  opened: roomOpened,
  closed: roomClosed,
  historyLoaded,
  aroundLoaded,
  caughtUp,
  replyStarted,
  replyCancelled,
  editStarted,
  editCancelled,
  editSubmitted,
  deleteConfirmed,
  reactionToggled,
  messageEdited,
  messageDeleted,
  messagesHidden,
  reactionChanged,
  linkPreviewArrived,
  changesLoaded,
  jumpRequested,
  jumpEnded,
  focused,
  olderRequested,
  olderLoaded,
  olderFailed,
  messageReceived,
  messageSubmitted,
  attachmentUploaded,
  typingNoticed,
  messageQueued,
  unsentRestored,
  sendAttempted,
  sendTimedOut,
  resendRequested,
  unsentDeleted,
  subscribed,
  disconnected,
  activityChanged,
  renameSubmitted,
  renamed,
  leaveConfirmed,
  notificationConfirmed,
  notificationSent,
  notificationFailed,
  noticeChanged,
  noticeSetRequested,
  noticeRemoveRequested,
  settingsLoaded,
  settingsChangeRequested,
} = roomSlice.actions;

/** The member changed a room's settings (the server's answer): the chat list re-sorts and marks the row. */
export const roomSettingsChanged = createAction<RoomSettings>('room/settingsChanged');

/**
 * A message of the open room was deleted for everyone, told with its seq once the room
 * has applied it; for whoever shows the room's last message (the chat list).
 */
export const messageDeletedInRoom = createAction<{ chatRoomId: number; seq: number }>('room/messageDeletedInRoom');

/**
 * The server says news may have been lost while its cluster bus was down (docs/protocol.md
 * "Catching up after a bus outage"): the open room catches up as after a reconnect.
 */
export const roomResyncRequested = createAction<{ chatRoomId: number }>('room/resyncRequested');

export const roomReducer = roomSlice.reducer;

type WithRoom = { room: RoomState };

const messageSelectors = messagesAdapter.getSelectors((state: WithRoom) => state.room.messages);
const pendingSelectors = pendingAdapter.getSelectors((state: WithRoom) => state.room.pending);

/** The messages held, in room order: the same array until one of them changes. */
export const selectMessages = messageSelectors.selectAll;
/** The message ids held, in room order: the same array until a message comes or goes. */
export const selectMessageIds = messageSelectors.selectIds;
/** A held message by id, or undefined. */
export const selectMessageById = messageSelectors.selectById;
/** A held message's seq, if it is held and has one. */
export const selectMessageSeq = (state: WithRoom, messageId: number) => state.room.messages.entities[messageId]?.seq;
export const selectOldestMessageId = (state: WithRoom) => oldestMessageId(state.room.messages);
export const selectNewestMessageId = (state: WithRoom) => newestMessageId(state.room.messages);
export const selectNewestSeq = (state: WithRoom) => newestSeq(state.room.messages);
/** The user's sends awaiting their echo, in the order written: the same array until one changes. */
export const selectPending = pendingSelectors.selectAll;

export const selectOpenRoomId = (state: WithRoom) => state.room.chatRoomId;
export const selectRoomUserId = (state: WithRoom) => state.room.userId;
/** The room's history has loaded for this room (not a previous room's state still in the store). */
export const selectRoomReady = (state: WithRoom, chatRoomId: number) => state.room.chatRoomId === chatRoomId && state.room.status === 'ready';
export const selectRoomName = (state: WithRoom) => state.room.roomName;
export const selectRoomUsers = (state: WithRoom) => state.room.users;
export const selectMemberCount = (state: WithRoom) => state.room.users.length;
/** The other person of a two-person room, whom the header's 음성통화/영상통화 buttons call; null otherwise. */
export const selectCallPeer = createSelector([selectRoomUsers, selectRoomUserId], (users, me) => {
  if (users.length !== 2) return null;
  const other = users.find((user) => user.userId !== me);
  return other ? { userId: other.userId, name: other.name } : null;
});
/** The members' ids, for read counts: the same array until the members change. */
export const selectMemberIds = createSelector([selectRoomUsers], (users) => users.map((u) => u.userId));
export const selectHasOlder = (state: WithRoom) => state.room.hasOlder;
export const selectLoadingOlder = (state: WithRoom) => state.room.loadingOlder;
export const selectRoomConnection = (state: WithRoom) => state.room.connection;
export const selectRoomActive = (state: WithRoom) => state.room.active;
export const selectRoomUnseen = (state: WithRoom) => state.room.unseenCount;
export const selectNotification = (state: WithRoom) => state.room.notification;
export const selectReplyTo = (state: WithRoom) => state.room.replyTo;
export const selectEditing = (state: WithRoom) => state.room.editing;
export const selectFocus = (state: WithRoom) => state.room.focus;
export const selectJumping = (state: WithRoom) => state.room.jumping;
export const selectLastChangeSeq = (state: WithRoom) => state.room.lastChangeSeq;
export const selectNotice = (state: WithRoom) => state.room.notice;
export const selectRoomSettings = (state: WithRoom) => state.room.settings;
/** The open room is muted (its messages notify only when they mention the member). */
export const selectOpenRoomMuted = (state: WithRoom) => state.room.settings?.muted ?? false;
