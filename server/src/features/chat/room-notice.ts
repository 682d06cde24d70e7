// A room's notice (공지, docs/protocol.md PUT/DELETE /api/chat-room/notice): any member makes one
// of the room's messages the notice, replacing the one before, or removes it for everyone. Not a
// system message, not a deleted one; deleting the notice's message removes the notice
// (delete-message.ts). Every member hears {type: "notice"} on the room's events topic. Ours: a
// member who blocked the message's sender hears it as removed, and their history answers no
// notice while it stands (docs/protocol.md, blocks): the message is not theirs to read.
import type { RoomNotice } from '@common/api';
import { NotFoundError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { toRoomNotice } from './history';
import { memberAmong } from './membership';

type NoticeDeps = Pick<ChatDeps, 'members' | 'messages' | 'rooms' | 'roomEvents' | 'clock'>;

export async function setNotice(deps: NoticeDeps, userId: number, roomId: number, messageId: number): Promise<RoomNotice> {
  const members = await deps.members.get(roomId, userId);
  const me = memberAmong(members, userId);
  const message = await deps.messages.findById(messageId);
  // A message of another room, or one from before the member joined, is as unknown as none.
  if (!message || message.roomId !== roomId || message.seq < (me.visibleFromSeq ?? 0)) throw new NotFoundError('no such message in this chat room');
  if (message.deletedAtMs != null) throw new NotFoundError('the message was deleted');
  if (message.senderId === null) throw new NotFoundError('a system message cannot be the notice');
  const atMs = deps.clock();
  await deps.rooms.setNotice(roomId, messageId, userId, atMs);
  const notice = toRoomNotice({ messageId, content: message.content, setByName: me.name, setAtMs: atMs })!;
  deps.roomEvents.notice(roomId, notice, { senderId: message.senderId, members });
  return notice;
}

export async function removeNotice(deps: NoticeDeps, userId: number, roomId: number): Promise<void> {
  memberAmong(await deps.members.get(roomId, userId), userId);
  if (await deps.rooms.removeNotice(roomId)) deps.roomEvents.notice(roomId, null);
}
