// Where attachments' bytes live, behind one interface: rows of the database by default (every
// node of a cluster reads the same files, nothing to run beside the server), or a folder on
// this machine (ATTACHMENTS_DIR, single-node deployments). Both write and read in pieces: no
// file is ever held whole in memory by the store.
import crypto from 'node:crypto';
import type { AfterCommit, Transaction } from '../types';

/** A piece of a stored file: what the stores write and read at most at once. */
export const BLOB_CHUNK_BYTES = 256 * 1024;

export interface BlobStore {
  /**
   * Stores the bytes as they come under a new key and answers it with the size. When the
   * source fails (the upload was cut or refused), what was written is removed and it throws.
   */
  write(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<{ key: string; size: number }>;
  /**
   * The stored bytes, or those from `range.start` to `range.end` (inclusive), in pieces of at
   * most BLOB_CHUNK_BYTES; a range starts at the piece that holds its first byte.
   */
  read(key: string, range?: ByteRange): AsyncIterable<Buffer>;
  /** The stored file's length in bytes; null when there is none under the key. */
  size(key: string): Promise<number | null>;
  /** Removes the file; a key already gone is no error. */
  remove(key: string): Promise<void>;
  /**
   * Removes files as part of a database transaction (a room deleted): rows of the database go
   * in it; what lives elsewhere (a folder's files) cannot be rolled back, so it is answered, to
   * run once the transaction committed. Keys already gone are no error.
   */
  removeWithin(trx: Transaction, keys: readonly string[]): Promise<AfterCommit | null>;
}

/** Bytes `start` to `end`, both inclusive. */
export interface ByteRange { start: number; end: number }

export function newBlobKey(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** Regroups a stream's chunks, whatever their sizes, into pieces of exactly `size` bytes (the last may be shorter). */
export async function* rechunk(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, size: number): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (pendingBytes + buf.length >= size) {
      const take = size - pendingBytes;
      pending.push(buf.subarray(0, take));
      yield Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      buf = buf.subarray(take);
    }
    if (buf.length > 0) {
      pending.push(Buffer.from(buf)); // a copy: the source may reuse its memory
      pendingBytes += buf.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}
