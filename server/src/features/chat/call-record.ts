// Where a call's record goes (docs/protocol.md, the call record): the two people's room, the
// existing two-person room no one renamed, else one made as /api/chat-room/create makes it, and
// a system message in it, sent like any other (room topic, both people's refresh signal).
import type { CallSystemEvent } from '@common/api';
import type { ChatDeps } from './chat-deps';
import { createRoom } from './create-room';
import { systemMessages } from './system-messages';

export interface CallRecordRooms {
  /** The caller's and callee's room: their two-person room, made if they have none. */
  roomOf(callerId: number, calleeId: number): Promise<number>;
  /** Posts the record of a call in that room. */
  post(roomId: number, event: CallSystemEvent): Promise<void>;
}

export function callRecordRooms(deps: Pick<ChatDeps, 'rooms' | 'users' | 'publisher' | 'clock' | 'sender' | 'blocks'>): CallRecordRooms {
  return {
    roomOf: (callerId, calleeId) => createRoom(deps, callerId, calleeId),
    async post(roomId, event) {
      const roomName = (await deps.rooms.roomName(roomId)) ?? '';
      await deps.sender.postSystemMessage(roomId, systemMessages.call(event, roomName));
    },
  };
}
