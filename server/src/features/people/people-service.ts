// People (docs/protocol.md, profiles and friends): the signed-in user's photo and status
// message, others' photos, and the user's friends list. Photos are made in a fair pool
// (profile-photo.ts); each new photo gets a new random version, which is its ETag and the
// `photoVersion` every user object carries.
import crypto from 'node:crypto';
import type { BlockedUser, Friend, MyProfile, PhotoSize } from '@common/api';
import { isValidStatusMessage, LIMITS } from '@common/rules';
import type { UsersRepository } from '../accounts/users-repository';
import type { Presence } from '../../cluster/presence';
import { InvalidError, NotFoundError } from '../errors';
import type { Clock } from '../types';
import type { BlocksRepository } from './blocks-repository';
import type { FriendsRepository } from './friends-repository';
import type { ProfilePhoto } from './profile-photo';
import type { PhotosRepository, StoredPhoto } from './photos-repository';

export interface PeopleDeps {
  users: UsersRepository;
  photos: PhotosRepository;
  friends: FriendsRepository;
  blocks: BlocksRepository;
  /** Told after a block or unblock between the two (chat re-reads the rooms they share). */
  blockChanged: (userId: number, otherId: number) => Promise<void>;
  presence: Pick<Presence, 'onlineAmong'>;
  makePhoto: (userId: number, source: AsyncIterable<Buffer>) => Promise<ProfilePhoto | null>;
  clock: Clock;
}

export class PeopleService {
  constructor(private readonly deps: PeopleDeps) {}

  async profile(userId: number): Promise<MyProfile> {
    const user = await this.deps.users.publicUser(userId);
    if (!user) throw new NotFoundError('no such user');
    return { userId: user.id, name: user.name, photoVersion: user.photoVersion, statusMessage: user.statusMessage };
  }

  /** Stores the uploaded image as the user's photo; answers its new version. */
  async setPhoto(userId: number, source: AsyncIterable<Buffer>): Promise<string> {
    const photo = await this.deps.makePhoto(userId, source);
    if (!photo) throw new InvalidError('the photo must be a JPEG, PNG or WebP image');
    const version = crypto.randomBytes(9).toString('base64url');
    await this.deps.photos.put(userId, { version, ...photo }, this.deps.clock(), (trx, v) => this.deps.users.setPhotoVersion(userId, v, trx));
    return version;
  }

  async removePhoto(userId: number): Promise<void> {
    await this.deps.photos.remove(userId, (trx, v) => this.deps.users.setPhotoVersion(userId, v, trx));
  }

  async photo(userId: number, size: PhotoSize): Promise<StoredPhoto> {
    const photo = await this.deps.photos.get(userId, size);
    if (!photo) throw new NotFoundError('no photo');
    return photo;
  }

  /** Sets the status message, trimmed; empty clears it (null). */
  async setStatus(userId: number, statusMessage: string): Promise<string | null> {
    if (!isValidStatusMessage(statusMessage)) throw new InvalidError(`statusMessage must be at most ${LIMITS.statusMessage} characters, without control or invisible characters`);
    const stored = statusMessage.trim() === '' ? null : statusMessage.trim();
    await this.deps.users.setStatusMessage(userId, stored);
    return stored;
  }

  async friends(userId: number): Promise<Friend[]> {
    const rows = await this.deps.friends.list(userId);
    const online = await this.deps.presence.onlineAmong(rows.map((r) => r.id));
    return rows.map((r) => ({ userId: r.id, name: r.name, photoVersion: r.photoVersion, statusMessage: r.statusMessage, favourite: r.favourite, online: online.has(r.id) }));
  }

  /** Adds a friend, or sets their favourite mark; not oneself, not a user who does not exist. */
  async putFriend(userId: number, friendId: number, favourite: boolean | undefined): Promise<void> {
    if (friendId === userId) throw new InvalidError('you cannot be your own friend');
    if (!(await this.deps.users.publicUser(friendId))) throw new NotFoundError('no such user');
    await this.deps.friends.put(userId, friendId, favourite, this.deps.clock());
  }

  /** Removes a friend; 404 when they were none (nor a user). */
  async removeFriend(userId: number, friendId: number): Promise<void> {
    if (friendId === userId) throw new InvalidError('you cannot be your own friend');
    if (!(await this.deps.friends.remove(userId, friendId))) throw new NotFoundError('not a friend');
  }

  async blocked(userId: number): Promise<BlockedUser[]> {
    return this.deps.blocks.list(userId);
  }

  /** Blocks someone (and unfriends them); never told to them. */
  async block(userId: number, otherId: number): Promise<void> {
    if (otherId === userId) throw new InvalidError('you cannot block yourself');
    if (!(await this.deps.users.publicUser(otherId))) throw new NotFoundError('no such user');
    if (await this.deps.blocks.put(userId, otherId, this.deps.clock())) await this.deps.blockChanged(userId, otherId);
  }

  /** Unblocks someone; 404 when they were not blocked. */
  async unblock(userId: number, otherId: number): Promise<void> {
    if (otherId === userId) throw new InvalidError('you cannot block yourself');
    if (!(await this.deps.blocks.remove(userId, otherId))) throw new NotFoundError('not blocked');
    await this.deps.blockChanged(userId, otherId);
  }
}
