// Writing the search index (message_bigrams, docs/architecture.md §6a). A new message's rows are
// written after its commit, by MessageIndexer, in a transaction that also sets its `indexed`
// flag, so a message is either waiting (and found by LIKE) or in the index, never half; an edit
// or a deletion of an indexed message changes its rows in the transaction that changes it.
// Rows are removed by the grams of the text they were made from: the key starts with the gram,
// so (gram, room, message) point deletes need no second index on message_id.
import type { Knex } from '../../db/knex';
import { messageGrams } from './message-grams';

export interface IndexedText { messageId: number; roomId: number; content: string }

/** Rows per statement: about 100 KB of SQL (SQLite's statements: 1 MB at most; MariaDB's packets: 16 MiB). */
const CHUNK = 4000;

export async function indexMessages(trx: Knex | Knex.Transaction, messages: IndexedText[]): Promise<void> {
  const rows: Array<[number, number, number]> = [];
  for (const m of messages) for (const gram of messageGrams(m.content)) rows.push([gram, m.roomId, m.messageId]);
  // Integers only, written as literals: as bindings, a chunk's 12,000 values took the event loop
  // 3–10 ms to format (Knex's, then mysql2's), every batch.
  if (!rows.every((r) => r.every(Number.isSafeInteger))) throw new Error('search index rows must be integers');
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows.slice(i, i + CHUNK).map((r) => `(${r[0]},${r[1]},${r[2]})`);
    await trx.raw(`insert into message_bigrams (gram, room_id, message_id) values ${values.join(',')}`);
  }
}

/**
 * Indexes those of the messages that still wait, with their text as it is now, and marks them
 * indexed; answers how many it indexed. Their rows are locked first: another node's indexer (or
 * the sweep) asking for the same message then waits and finds it indexed, and an edit or a
 * deletion waits too (messages-repository's searchableText).
 */
export async function indexWaiting(db: Knex, messageIds: number[]): Promise<number> {
  if (messageIds.length === 0) return 0;
  return db.transaction(async (trx) => {
    // Locked by id alone: asked with `indexed = 0` too, InnoDB would walk (indexed, room_id) and
    // lock its gaps, where every new message goes in, and the message transaction would wait
    // for this one (measured: transactions of 50–100 ms at p99). Locking reads see the latest commit.
    const locked = (await trx('messages')
      .select('id', 'room_id', 'content', 'deleted_at_ms', 'indexed')
      .whereIn('id', messageIds)
      .forUpdate()) as Array<{ id: number; room_id: number; content: string; deleted_at_ms: number | string | null; indexed: number | boolean }>;
    const rows = locked.filter((r) => !r.indexed);
    if (rows.length === 0) return 0;
    // A message deleted while it waited has no text to find.
    await indexMessages(trx, rows.filter((r) => r.deleted_at_ms === null).map((r) => ({ messageId: Number(r.id), roomId: Number(r.room_id), content: r.content })));
    await trx('messages').whereIn('id', rows.map((r) => Number(r.id))).update({ indexed: 1 });
    return rows.length;
  });
}

/** The messages waiting for the index, as MessageIndexer sees them. */
export class WaitingMessages {
  constructor(private readonly db: Knex) {}

  /** Indexes those of the messages that still wait; answers how many. */
  index(messageIds: number[]): Promise<number> {
    return indexWaiting(this.db, messageIds);
  }

  /** Up to `limit` messages still waiting that were stored before `beforeMs`, oldest first. */
  async storedBefore(beforeMs: number, limit: number): Promise<number[]> {
    const rows = (await this.db('messages').select('id').where('indexed', 0).where('created_at_ms', '<', beforeMs).orderBy('id').limit(limit)) as Array<{ id: number }>;
    return rows.map((r) => Number(r.id));
  }
}

export async function unindexMessage(trx: Knex | Knex.Transaction, m: IndexedText): Promise<void> {
  const grams = messageGrams(m.content);
  for (let i = 0; i < grams.length; i += CHUNK) {
    await trx('message_bigrams').where({ room_id: m.roomId, message_id: m.messageId }).whereIn('gram', grams.slice(i, i + CHUNK)).delete();
  }
}

/** Messages read at a time while a deleted room's rows are removed. */
const ROOM_BATCH = 1000;

/**
 * Removes every row of a room being deleted (in its transaction): by the grams of its indexed
 * messages (people's, not deleted), read in batches along (room_id, seq); each gram's rows of the
 * room go in one key-range delete, each gram once, so no index on room_id is needed.
 */
export async function unindexRoom(trx: Knex.Transaction, roomId: number): Promise<void> {
  const removed = new Set<number>();
  for (let afterSeq = 0; ; ) {
    const rows = (await trx('messages')
      .select('seq', 'content')
      .where('room_id', roomId)
      .where('seq', '>', afterSeq)
      .whereNotNull('sender_id')
      .whereNull('deleted_at_ms')
      .orderBy('seq')
      .limit(ROOM_BATCH)) as Array<{ seq: number; content: string }>;
    if (rows.length === 0) return;
    const grams: number[] = [];
    for (const r of rows) {
      for (const gram of messageGrams(r.content)) {
        if (removed.has(gram)) continue;
        removed.add(gram);
        grams.push(gram);
      }
    }
    for (let i = 0; i < grams.length; i += CHUNK) {
      await trx('message_bigrams').where('room_id', roomId).whereIn('gram', grams.slice(i, i + CHUNK)).delete();
    }
    afterSeq = Number(rows[rows.length - 1].seq);
    // better-sqlite3 runs each statement on the event loop: a room of 100,000 messages must not
    // hold every other socket for its whole clean-up, only for one batch at a time.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
