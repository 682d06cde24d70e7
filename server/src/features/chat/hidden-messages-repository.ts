// Ours (issue 27): delete for me. `hidden_messages (user_id, message_id)`: a message one user hid
// for themselves; what they read (history, search) leaves it out, for them alone.
import type { Knex } from '../../db/knex';

export class HiddenMessagesRepository {
  constructor(private readonly db: Knex) {}

  /** Hides the message for the user; answers whether it was not hidden already. */
  async hide(userId: number, messageId: number, atMs: number): Promise<boolean> {
    const before = (await this.db('hidden_messages').select('message_id').where({ user_id: userId, message_id: messageId }).first()) as { message_id: number } | undefined;
    if (before) return false;
    await this.db('hidden_messages').insert({ user_id: userId, message_id: messageId, created_at_ms: atMs }).onConflict(['user_id', 'message_id']).ignore();
    return true;
  }

  /** Which of these messages the user hid (primary-key lookups). */
  async hiddenAmong(userId: number, messageIds: readonly number[]): Promise<Set<number>> {
    if (messageIds.length === 0) return new Set();
    const rows = (await this.db('hidden_messages').select('message_id').where('user_id', userId).whereIn('message_id', messageIds)) as Array<{ message_id: number }>;
    return new Set(rows.map((r) => Number(r.message_id)));
  }
}
