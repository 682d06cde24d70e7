// Writing the search index (message_bigrams, docs/architecture.md §6a) inside the transaction
// that stores, edits or deletes a message, so the index never disagrees with a committed message.
// Rows are removed by the grams of the text they were made from: the key starts with the gram,
// so (gram, room, message) point deletes need no second index on message_id.
import type { Knex } from '../../db/knex';
import { messageGrams } from './message-grams';

export interface IndexedText { messageId: number; roomId: number; content: string }

/** Rows per statement: 3 bindings each, well under both databases' limits. */
const CHUNK = 1000;

export async function indexMessages(trx: Knex | Knex.Transaction, messages: IndexedText[]): Promise<void> {
  const rows: number[] = [];
  for (const m of messages) for (const gram of messageGrams(m.content)) rows.push(gram, m.roomId, m.messageId);
  for (let i = 0; i < rows.length; i += CHUNK * 3) {
    const part = rows.slice(i, i + CHUNK * 3);
    await trx.raw(`insert into message_bigrams (gram, room_id, message_id) values ${Array.from({ length: part.length / 3 }, () => '(?, ?, ?)').join(', ')}`, part);
  }
}

export async function unindexMessage(trx: Knex | Knex.Transaction, m: IndexedText): Promise<void> {
  const grams = messageGrams(m.content);
  for (let i = 0; i < grams.length; i += CHUNK) {
    await trx('message_bigrams').where({ room_id: m.roomId, message_id: m.messageId }).whereIn('gram', grams.slice(i, i + CHUNK)).delete();
  }
}
