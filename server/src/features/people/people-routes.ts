// REST of people (ours, docs/protocol.md, profiles and friends). The photo's upload streams in
// like an attachment's (refused past 10 MiB at once); a photo is served with its version as a
// strong ETag (304 on If-None-Match) and, when the address names that very version (?v=), cached
// for good, since a new photo has a new version.
import { Readable } from 'node:stream';
import { api, PHOTO_SIZES, type BlockedUser, type Friend, type MyProfile, type PhotoResponse, type PhotoSize, type StatusResponse } from '@common/api';
import { LIMITS, toPositiveId } from '@common/rules';
import { userOf, type RequestContext, type Route } from '../../transport/route';
import { InvalidError, NotFoundError } from '../errors';
import { objectBody, stringField } from '../request-fields';
import type { PeopleService } from './people-service';

function sizeField(raw: string | null): PhotoSize {
  const size = raw ?? 'small';
  if (!(PHOTO_SIZES as readonly string[]).includes(size)) throw new InvalidError('size must be small or large');
  return size as PhotoSize;
}

/** A user id in the path: malformed is 400 (docs/protocol.md, friends). */
function userIdParam(ctx: RequestContext): number {
  const id = toPositiveId(ctx.params.userId);
  if (id === null) throw new InvalidError('userId must be a positive integer');
  return id;
}

export function peopleRoutes(people: PeopleService): Route[] {
  return [
    {
      method: 'GET',
      path: api.userProfile,
      handle: async (ctx) => {
        const json: MyProfile = await people.profile(userOf(ctx).userId);
        return { json };
      },
    },
    {
      method: 'PUT',
      path: api.userPhoto,
      streamBody: { maxBytes: LIMITS.photoBytes },
      handle: async (ctx) => {
        const json: PhotoResponse = { photoVersion: await people.setPhoto(userOf(ctx).userId, ctx.bodyStream ?? Readable.from([])) };
        return { json };
      },
    },
    {
      method: 'DELETE',
      path: api.userPhoto,
      handle: async (ctx) => {
        await people.removePhoto(userOf(ctx).userId);
        return { json: { photoVersion: null } };
      },
    },
    {
      method: 'GET',
      path: api.photoOf(':userId'),
      handle: async (ctx) => {
        userOf(ctx);
        const userId = toPositiveId(ctx.params.userId);
        if (userId === null) throw new NotFoundError('no photo');
        const size = sizeField(ctx.query.get('size'));
        const photo = await people.photo(userId, size);
        const pinned = ctx.query.get('v') === photo.version;
        return {
          headers: { 'Cache-Control': pinned ? 'private, max-age=31536000, immutable' : 'private, no-cache' },
          stream: {
            contentType: photo.contentType,
            size: photo.bytes.length,
            // Strong, of these bytes: the version names the photo, the size which of its two files.
            etag: `"${photo.version}-${size}"`,
            // The bytes are already in hand: a stream of one piece.
            read: (start, end) => Readable.from([photo.bytes.subarray(start, end + 1)]),
          },
        };
      },
    },
    {
      method: 'PUT',
      path: api.userStatus,
      handle: async (ctx) => {
        const body = objectBody(ctx.body);
        // Checked for length after trimming by the service; a far longer field is refused here.
        const text = stringField(body.statusMessage, 'statusMessage', 1000);
        const json: StatusResponse = { statusMessage: await people.setStatus(userOf(ctx).userId, text) };
        return { json };
      },
    },
    {
      method: 'GET',
      path: api.friends,
      handle: async (ctx) => {
        const json: Friend[] = await people.friends(userOf(ctx).userId);
        return { json };
      },
    },
    {
      method: 'PUT',
      path: api.friend(':userId'),
      handle: async (ctx) => {
        const { userId } = userOf(ctx);
        const body = ctx.body === undefined || ctx.body === null ? {} : objectBody(ctx.body);
        if (body.favourite !== undefined && typeof body.favourite !== 'boolean') throw new InvalidError('favourite must be true or false');
        await people.putFriend(userId, userIdParam(ctx), body.favourite);
        return { json: await people.friends(userId) };
      },
    },
    {
      method: 'DELETE',
      path: api.friend(':userId'),
      handle: async (ctx) => {
        const { userId } = userOf(ctx);
        await people.removeFriend(userId, userIdParam(ctx));
        return { json: await people.friends(userId) };
      },
    },
      {
      method: 'GET',
      path: api.blocks,
      handle: async (ctx) => {
        const json: BlockedUser[] = await people.blocked(userOf(ctx).userId);
        return { json };
      },
    },
    {
      method: 'PUT',
      path: api.block(':userId'),
      handle: async (ctx) => {
        const { userId } = userOf(ctx);
        await people.block(userId, userIdParam(ctx));
        const json: BlockedUser[] = await people.blocked(userId);
        return { json };
      },
    },
    {
      method: 'DELETE',
      path: api.block(':userId'),
      handle: async (ctx) => {
        const { userId } = userOf(ctx);
        await people.unblock(userId, userIdParam(ctx));
        const json: BlockedUser[] = await people.blocked(userId);
        return { json };
      },
    },
  ];
}
