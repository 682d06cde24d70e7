// The user_photos table (docs/protocol.md, profiles): one row per user with both sizes. The
// user's photo_version (accounts' users table) is written in the same transaction through the
// accounts repository, so a version never names bytes that are not there.
import type { Knex } from '../../db/knex';
import type { PhotoSize } from '@common/api';

export interface StoredPhoto {
  version: string;
  contentType: string;
  bytes: Buffer;
}

/** Writes the user's photo version in the photo's transaction (UsersRepository.setPhotoVersion). */
export type SetVersion = (trx: Knex, version: string | null) => Promise<void>;

interface PhotoRow { version: string; content_type: string; bytes: Buffer | Uint8Array }

export class PhotosRepository {
  constructor(private readonly db: Knex) {}

  /** Stores (or replaces) the user's photo and its version. */
  async put(userId: number, photo: { version: string; contentType: string; small: Buffer; large: Buffer }, nowMs: number, setVersion: SetVersion): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('user_photos')
        .insert({ user_id: userId, version: photo.version, content_type: photo.contentType, small: photo.small, large: photo.large, created_at_ms: nowMs })
        .onConflict('user_id')
        .merge(['version', 'content_type', 'small', 'large', 'created_at_ms']);
      await setVersion(trx, photo.version);
    });
  }

  /** Removes the user's photo; whether there was one. */
  async remove(userId: number, setVersion: SetVersion): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const removed = await trx('user_photos').where({ user_id: userId }).del();
      await setVersion(trx, null);
      return removed > 0;
    });
  }

  /** One size of the user's photo; null when they have none. */
  async get(userId: number, size: PhotoSize): Promise<StoredPhoto | null> {
    const row = await this.db('user_photos')
      .select<PhotoRow[]>('version', 'content_type', `${size} as bytes`)
      .where({ user_id: userId })
      .first();
    return row ? { version: row.version, contentType: row.content_type, bytes: Buffer.from(row.bytes) } : null;
  }
}
