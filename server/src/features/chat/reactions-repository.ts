// Reactions on messages: one row per (message, user, emoji). Setting or clearing one is a change
// of its message (the room's change counter moves, docs/protocol.md changedSince), so it runs
// inside MessagesRepository.change; setting twice or clearing what is not there changes nothing.
import type { ReactionSummary } from '@common/api';
import type { Reaction } from '@common/rules';
import type { Knex } from '../../db/knex';
import type { Change, MessagesRepository } from './messages-repository';

export class ReactionsRepository {
  constructor(
    private readonly db: Knex,
    private readonly messages: MessagesRepository,
  ) {}

  /**
   * Sets (on) or clears (off) the user's reaction; null when nothing changed: already so, or
   * the message was deleted meanwhile (a deleted message keeps no reactions).
   */
  async set(roomId: number, messageId: number, userId: number, emoji: Reaction, on: boolean, atMs: number): Promise<Change | null> {
    return this.messages.change(roomId, messageId, async (trx) => {
      const key = { message_id: messageId, user_id: userId, emoji };
      if (!on) return (await trx('message_reactions').where(key).delete()) > 0;
      const message = (await trx('messages').select('deleted_at_ms').where({ id: messageId, room_id: roomId }).first()) as { deleted_at_ms: unknown } | undefined;
      if (!message || message.deleted_at_ms !== null) return false;
      if (await trx('message_reactions').select('message_id').where(key).first()) return false;
      await trx('message_reactions').insert({ ...key, created_at_ms: atMs });
      return true;
    });
  }

  /** Each message's reactions, each emoji once with its users, in the order first given. */
  async of(messageIds: readonly number[]): Promise<Map<number, ReactionSummary[]>> {
    if (messageIds.length === 0) return new Map();
    return summaries(await this.db('message_reactions')
      .select<ReactionRow[]>('message_id', 'user_id', 'emoji')
      .whereIn('message_id', messageIds)
      .orderBy([{ column: 'created_at_ms' }, { column: 'user_id' }]));
  }
}

interface ReactionRow { message_id: number; user_id: number; emoji: string }

/** Rows in the order given, grouped per message and emoji. */
function summaries(rows: ReactionRow[]): Map<number, ReactionSummary[]> {
  const out = new Map<number, ReactionSummary[]>();
  for (const r of rows) {
    const list = out.get(Number(r.message_id)) ?? [];
    if (!out.has(Number(r.message_id))) out.set(Number(r.message_id), list);
    const entry = list.find((e) => e.emoji === r.emoji);
    if (entry) entry.userIds.push(Number(r.user_id));
    else list.push({ emoji: r.emoji, userIds: [Number(r.user_id)] });
  }
  return out;
}
