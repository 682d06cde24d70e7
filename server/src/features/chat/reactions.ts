// Reactions (docs/protocol.md /app/reaction): a member sets or clears one of the six emoji on a
// message of the room, not on a deleted one. Idempotent: setting twice is once, and only a real
// change is told to the room ({type: "reaction"}).
import { InvalidError } from '../errors';
import type { Reaction } from '@common/rules';
import type { MessageActionDeps } from './edit-message';
import { memberAndMessage } from './message-lookup';
import type { ReactionsRepository } from './reactions-repository';

export async function react(
  deps: MessageActionDeps & { reactions: Pick<ReactionsRepository, 'set'> },
  userId: number, roomId: number, messageId: number, emoji: Reaction, on: boolean,
): Promise<void> {
  const { message, members } = await memberAndMessage(deps, userId, roomId, messageId);
  if (message.deletedAtMs != null && on) throw new InvalidError('the message was deleted');
  const change = await deps.reactions.set(roomId, messageId, userId, emoji, on, deps.clock());
  // Not told to whoever blocked the reactor, nor to whoever blocked the message's sender (it is not in their room).
  if (change) deps.roomEvents.reaction(roomId, messageId, userId, emoji, on, change.changeSeq, members, message.senderId);
}
