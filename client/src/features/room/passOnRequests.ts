// The forward picker's lists and the forward itself (issue 27), in the lazy pass-on chunk.
import { call, put, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatSummary, type Friend } from '@common/api';
import { app } from '@common/destinations';
import { LIMITS } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import { newClientMsgId } from './clientMsgId';
import { forwardFinished, forwardStarted, forwardTargetsFailed, forwardTargetsLoaded, type ForwardFriend, type ForwardRoom, type forwardRequested, type hideRequested } from './passOnSlice';
import { messagesHidden } from './roomSlice';

/** Delete for me: off the screen at once, then one /app/hide-message per message (the user's other tabs hear `hidden`). */
export function* hide(action: ReturnType<typeof hideRequested>): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  const alert = yield* service('alert');
  yield* put(messagesHidden(action.payload));
  for (const messageId of action.payload) {
    if (!(yield* call([stomp, stomp.publish], app.hideMessage, { messageId }))) {
      yield* call(alert, ko.messageActions.offline);
      return;
    }
  }
}

/** The picker's lists: the user's rooms (the memo room first, as the chat list has them), and friends with no 1:1 room yet. */
export function targetsOf(chats: readonly ChatSummary[], friends: readonly Friend[]): { rooms: ForwardRoom[]; friends: ForwardFriend[] } {
  const rooms = chats.map((c) => ({ chatRoomId: c.chatRoomId, name: c.chatRoomName, memberCount: c.memberCount ?? 0, self: c.self === true }));
  const withRoom = new Set(chats.flatMap((c) => (c.peer ? [c.peer.userId] : [])));
  return { rooms, friends: friends.filter((f) => !withRoom.has(f.userId)).map((f) => ({ userId: f.userId, name: f.name })) };
}

export function* loadTargets(): SagaGenerator<void> {
  const http = yield* service('http');
  const logError = yield* service('logError');
  try {
    const [chats, friends] = yield* call(() => Promise.all([http.get<ChatSummary[]>(api.chats), http.get<Friend[]>(api.friends)]));
    yield* put(forwardTargetsLoaded(targetsOf(chats, friends)));
  } catch (error) {
    yield* call(logError, 'room: forward targets', error);
    yield* put(forwardTargetsFailed());
  }
}

/**
 * Opens a 1:1 with each friend chosen (the existing room when there is one), then sends one
 * /app/forward-message per message to all the rooms at once (at most LIMITS.forwardRooms).
 */
export function* forward(action: ReturnType<typeof forwardRequested>): SagaGenerator<void> {
  const http = yield* service('http');
  const stomp = yield* service('stomp');
  const logError = yield* service('logError');
  const { messageIds, chatRoomIds, userIds } = action.payload;
  yield* put(forwardStarted());
  try {
    const rooms = [...chatRoomIds];
    for (const targetUserId of userIds) {
      const made = yield* call([http, http.post<{ chatRoomId: number }>], api.roomCreate, { targetUserId });
      rooms.push(made.chatRoomId);
    }
    const distinct = [...new Set(rooms)].slice(0, LIMITS.forwardRooms);
    for (const messageId of messageIds) {
      if (!(yield* call([stomp, stomp.publish], app.forwardMessage, { messageId, chatRoomIds: distinct, clientMsgId: newClientMsgId() }))) throw new Error('not connected');
    }
    yield* put(forwardFinished({ ok: true, count: distinct.length }));
  } catch (error) {
    yield* call(logError, 'room: forward', error);
    yield* put(forwardFinished({ ok: false, count: 0 }));
  }
}
