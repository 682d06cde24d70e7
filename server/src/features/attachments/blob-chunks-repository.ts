// The default blob store: a file as numbered rows of at most 256 KiB (attachment_chunks), each
// inserted as it fills and read back one row per query, so memory holds one piece at a time.
import type { Knex } from '../../db/knex';
import type { AfterCommit } from '../types';
import { BLOB_CHUNK_BYTES, newBlobKey, rechunk, type BlobStore, type ByteRange } from './blob-store';

export class BlobChunksRepository implements BlobStore {
  constructor(private readonly db: Knex) {}

  async write(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<{ key: string; size: number }> {
    const key = newBlobKey();
    let n = 0;
    let size = 0;
    try {
      for await (const piece of rechunk(source, BLOB_CHUNK_BYTES)) {
        await this.db('attachment_chunks').insert({ blob_key: key, n, data: piece });
        n += 1;
        size += piece.length;
      }
    } catch (err) {
      await this.remove(key);
      throw err;
    }
    return { key, size };
  }

  /** Every row but the last holds exactly BLOB_CHUNK_BYTES (rechunk), so a range starts at row start / BLOB_CHUNK_BYTES. */
  async *read(key: string, range?: ByteRange): AsyncIterable<Buffer> {
    const start = range?.start ?? 0;
    const end = range?.end ?? Number.MAX_SAFE_INTEGER;
    for (let n = Math.floor(start / BLOB_CHUNK_BYTES); n * BLOB_CHUNK_BYTES <= end; n += 1) {
      const row = (await this.db('attachment_chunks').select('data').where({ blob_key: key, n }).first()) as { data: Buffer } | undefined;
      if (!row) return;
      const offset = n * BLOB_CHUNK_BYTES;
      const from = Math.max(0, start - offset);
      const to = Math.min(row.data.length, end - offset + 1);
      yield from === 0 && to === row.data.length ? row.data : row.data.subarray(from, to);
    }
  }

  /** From the last row alone: the rows before it are full. */
  async size(key: string): Promise<number | null> {
    const last = (await this.db('attachment_chunks')
      .select('n', this.db.raw('length(data) as len'))
      .where({ blob_key: key })
      .orderBy('n', 'desc')
      .first()) as { n: number; len: number | string } | undefined;
    return last ? Number(last.n) * BLOB_CHUNK_BYTES + Number(last.len) : null;
  }

  async remove(key: string): Promise<void> {
    await this.db('attachment_chunks').where({ blob_key: key }).delete();
  }

  /** The rows go with the transaction: nothing is left for after it. */
  async removeWithin(trx: Knex.Transaction, keys: readonly string[]): Promise<AfterCommit | null> {
    for (let i = 0; i < keys.length; i += 500) await trx('attachment_chunks').whereIn('blob_key', keys.slice(i, i + 500)).delete();
    return null;
  }
}
