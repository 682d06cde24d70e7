// The default blob store: a file as numbered rows of at most 256 KiB (attachment_chunks), each
// inserted as it fills and read back one row per query, so memory holds one piece at a time.
import type { Knex } from '../../db/knex';
import type { AfterCommit } from '../types';
import { BLOB_CHUNK_BYTES, newBlobKey, rechunk, type BlobStore } from './blob-store';

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

  async *read(key: string): AsyncIterable<Buffer> {
    for (let n = 0; ; n += 1) {
      const row = (await this.db('attachment_chunks').select('data').where({ blob_key: key, n }).first()) as { data: Buffer } | undefined;
      if (!row) return;
      yield row.data;
    }
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
