// What group calls need of chat (issue 25): a room's members (who may start, join and be rung),
// the record of an ended group call as a system message in the room, and the word that a
// member left a room (their call in it lets them go). And what chat needs of group calls: the
// calls going on, shown on chat-list rows, and the word that one started, changed size or ended
// (every member's chat list is told to reload: a row's room may not be open anywhere).
import type { ChatRowGroupCall, GroupCallSystemEvent } from '@common/api';
import { groupCallRecordText } from '@common/system-text';
import { topics } from '@common/destinations';
import type { RoomEvent } from '@common/payloads';
import type { ChatDeps } from './chat-deps';
import type { RefreshSignals } from './refresh-signals';

export interface GroupCallRooms {
  /**
   * The room's members (id and display name; whom among them each blocked, when anyone: a call's
   * ring leaves out whoever blocked its starter); empty when the room does not exist.
   */
  members(roomId: number): Promise<Array<{ id: number; name: string; blocks?: readonly number[] }>>;
  /** Posts the record of a group call that ended in the room (nothing if the room is gone). */
  post(roomId: number, event: GroupCallSystemEvent): Promise<void>;
  /** An event on the room's events topic (the call's state). */
  publish(roomId: number, event: RoomEvent): void;
  /** Told after a member left a room. */
  onMemberLeft(listener: (roomId: number, userId: number) => void): void;
  /** Where chat-list rows learn of the calls going on, by room. */
  answerCalls(calls: () => Promise<Map<number, ChatRowGroupCall>>): void;
  /** A call in the room started, ended, or someone joined or left it: its row changed for every member. */
  rowChanged(roomId: number): Promise<void>;
}

export function groupCallRooms(
  deps: Pick<ChatDeps, 'rooms' | 'members' | 'sender' | 'publisher' | 'groupCalls'>,
  leftListeners: Array<(roomId: number, userId: number) => void>,
  refresh: Pick<RefreshSignals, 'signal'>,
): GroupCallRooms {
  return {
    async members(roomId) {
      return (await deps.members.get(roomId)).map((m) => ({ id: m.id, name: m.name, ...(m.blocks ? { blocks: m.blocks } : {}) }));
    },
    async post(roomId, event) {
      const roomName = await deps.rooms.roomName(roomId);
      if (roomName === null) return;
      await deps.sender.postSystemMessage(roomId, { roomName, content: groupCallRecordText(event), systemEvent: event });
    },
    publish(roomId, event) {
      deps.publisher.publish(topics.chatRoomEvents(roomId), event);
    },
    onMemberLeft(listener) {
      leftListeners.push(listener);
    },
    answerCalls(calls) {
      deps.groupCalls = calls;
    },
    async rowChanged(roomId) {
      for (const m of await deps.members.get(roomId)) refresh.signal(m.id);
    },
  };
}
