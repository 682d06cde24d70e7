// The kernel's system messages: what the room is told when it is renamed, someone is added or
// someone leaves, and (ours) the record of a call between its two people. Each carries the original product's exact Korean text (its client parses
// it) and the same facts as structured fields (systemEvent) that our client renders from.
import type { CallSystemEvent, SystemEvent } from '@common/api';
import { callRecordText, systemText } from '@common/system-text';
import type { ChatUser } from './rooms-repository';

export interface SystemMessage {
  /** System messages are sent in the room's name. */
  roomName: string;
  content: string;
  systemEvent: SystemEvent;
  leftUserId?: number;
  addedUserEmail?: string;
}

export const systemMessages = {
  renamed(actor: ChatUser, newName: string): SystemMessage {
    return {
      roomName: newName,
      content: systemText.renamed(actor.name, newName),
      systemEvent: { type: 'renamed', actorUserId: actor.id, actorName: actor.name, newName },
    };
  },
  added(actor: ChatUser, target: ChatUser, roomName: string): SystemMessage {
    return {
      roomName,
      content: systemText.added(actor.name, target.name),
      systemEvent: { type: 'added', actorUserId: actor.id, actorName: actor.name, targetUserId: target.id, targetName: target.name },
      addedUserEmail: target.email,
    };
  },
  left(actor: ChatUser, roomName: string): SystemMessage {
    return {
      roomName,
      content: systemText.left(actor.name),
      systemEvent: { type: 'left', actorUserId: actor.id, actorName: actor.name },
      leftUserId: actor.id,
    };
  },
  /** Ours: a neutral text for the original client (docs/spec.md, call record), the facts for ours. */
  call(event: CallSystemEvent, roomName: string): SystemMessage {
    return { roomName, content: callRecordText(event), systemEvent: event };
  },
};
