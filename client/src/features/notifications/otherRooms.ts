// New messages in rooms the user is not looking at (ours, beyond the spec): while notifications
// are allowed, /topic/toggle-refresh/{uid} says that one of the user's rooms has news, on every
// screen. The signal names no room, so the list of rooms is read again (the chat list's own load
// when it is open, a GET of ours elsewhere) and every room whose last message is new and unread
// raises a system notification, unless the user is looking at it: the open room (its messages
// are notified by the room itself, when the tab is hidden) and the visible chat list. Our own
// reads of the list are at most one every OTHER_ROOMS_READ_INTERVAL_MS: a busy room signals with
// every message, and a member elsewhere must not read their whole list each time.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import { actionChannel, call, delay, race, select, take, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatSummary } from '@common/api';
import { topics } from '@common/destinations';
import { isRefreshSignal } from '@common/events';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import type { StompService } from '../../services/stomp';
import { messageNotice } from '../../sw/pushNotice';
import { chatsLoaded, hasUnread, isAudible } from '../chatList';
import { selectOpenRoomId } from '../room';

/** The shortest time between two reads of the list made for notifications (signals meanwhile wait as one). */
export const OTHER_ROOMS_READ_INTERVAL_MS = 2000;

/** Each room's last message time, as last seen. */
type LastSeen = ReadonlyMap<number, string | null>;

/**
 * Rooms whose last message is new since the previous list and unread (the user's own never are),
 * leaving out muted rooms unless an unread message mentions the member (issue 26).
 */
export function newlyUnread(previous: LastSeen, chats: readonly ChatSummary[]): ChatSummary[] {
  return chats.filter((chat) => previous.has(chat.chatRoomId) && previous.get(chat.chatRoomId) !== chat.lastMessageTime && hasUnread(chat) && isAudible(chat));
}

/** 'subscribed' also after a reconnect, when news may have been missed: the list is read then too. */
function refreshSignals(stomp: StompService, userId: number): EventChannel<'signal'> {
  // One pending signal is enough: the next read of the list sees every room's news.
  return eventChannel<'signal'>(
    (emit) =>
      stomp.subscribe(topics.toggleRefresh(userId), {
        message: (body) => {
          if (isRefreshSignal(body)) emit('signal');
        },
        active: () => emit('signal'),
      }),
    buffers.sliding<'signal'>(1),
  );
}

function* readChats(): SagaGenerator<ChatSummary[] | null> {
  const http = yield* service('http');
  try {
    return yield* call([http, http.get<ChatSummary[]>], api.chats);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'notifications: chats', error);
    return null;
  }
}

function* notifyOfRoom(chat: ChatSummary): SagaGenerator<void> {
  const notifier = yield* service('notifier');
  const currentPath = yield* service('currentPath');
  const openRoom = yield* select(selectOpenRoomId);
  if (chat.chatRoomId === openRoom) return;
  const hidden = yield* call([notifier, notifier.hidden]);
  if (!hidden && currentPath() === paths.chatList) return;
  try {
    yield* call([notifier, notifier.show], messageNotice(chat.chatRoomId, chat.chatRoomName, chat.lastMessage ?? ''));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'notification', error);
  }
}

/** Runs while notifications are allowed on a signed-in screen. */
export function* watchOtherRooms(): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  const uid = yield* service('uid');
  const currentPath = yield* service('currentPath');
  const lists = yield* actionChannel(chatsLoaded, buffers.sliding(4));
  let userId = yield* call([uid, uid.read]);
  // After an OAuth sign-in the id is stored by the chat list's first load.
  while (userId === null) {
    yield* take(lists);
    userId = yield* call([uid, uid.read]);
  }
  const signals = yield* call(refreshSignals, stomp, userId);
  // Read at once: the first news is then told even if no list was seen before it.
  const first = yield* call(readChats);
  let previous: LastSeen | null = first && new Map(first.map((chat) => [chat.chatRoomId, chat.lastMessageTime]));
  try {
    for (;;) {
      const { loaded } = yield* race({ signal: take(signals), loaded: take(lists) });
      let chats: ChatSummary[] | null;
      if (loaded) chats = loaded.payload;
      // The open chat list reloads on the same signal: its list arrives through `lists`.
      else if (currentPath() === paths.chatList) continue;
      else chats = yield* call(readChats);
      if (chats) {
        if (previous) for (const chat of newlyUnread(previous, chats)) yield* call(notifyOfRoom, chat);
        previous = new Map(chats.map((chat) => [chat.chatRoomId, chat.lastMessageTime]));
      }
      if (!loaded) yield* delay(OTHER_ROOMS_READ_INTERVAL_MS);
    }
  } finally {
    signals.close();
    lists.close();
  }
}
