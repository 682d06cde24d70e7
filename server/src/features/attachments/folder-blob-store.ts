// The optional blob store: one file per blob in a folder of this machine (ATTACHMENTS_DIR).
// For a single node only: another node would not see the files. Written under a temporary
// name and renamed when complete, so a cut upload never leaves a file that looks whole.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AfterCommit, Transaction } from '../types';
import { BLOB_CHUNK_BYTES, newBlobKey, type BlobStore, type ByteRange } from './blob-store';

export class FolderBlobStore implements BlobStore {
  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private file(key: string): string {
    if (!/^[0-9a-f]{32}$/.test(key)) throw new Error(`not a blob key: ${key}`);
    return path.join(this.dir, key);
  }

  async write(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<{ key: string; size: number }> {
    const key = newBlobKey();
    const partial = `${this.file(key)}.part`;
    let size = 0;
    const counted = async function* () {
      for await (const chunk of source) {
        size += chunk.byteLength;
        yield chunk;
      }
    };
    try {
      await pipeline(Readable.from(counted()), fs.createWriteStream(partial, { flags: 'wx' }));
      await fs.promises.rename(partial, this.file(key));
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
    return { key, size };
  }

  async *read(key: string, range?: ByteRange): AsyncIterable<Buffer> {
    let stream: fs.ReadStream;
    try {
      stream = fs.createReadStream(this.file(key), { highWaterMark: BLOB_CHUNK_BYTES, ...(range ? { start: range.start, end: range.end } : {}) });
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.promises.stat(this.file(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  /** Files are not in the transaction: removed once it committed (a rollback keeps them). */
  removeWithin(_trx: Transaction, keys: readonly string[]): Promise<AfterCommit | null> {
    return Promise.resolve(async () => {
      for (const key of keys) await this.remove(key);
    });
  }
}
