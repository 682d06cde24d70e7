// People, assembled (docs/protocol.md, profiles, friends and blocks): photos, status messages,
// friends, blocks. The blocks are made first (createBlocks), since chat and calls read them.
import type { UsersRepository } from '../accounts/users-repository';
import type { Deps, ServerFeature } from '../types';
import { BlocksRepository } from './blocks-repository';
import { FriendsRepository } from './friends-repository';
import { peopleRoutes } from './people-routes';
import { PeopleService } from './people-service';
import { PhotosRepository } from './photos-repository';
import { photoPool } from './profile-photo';

export type { BlocksRepository };

/** Photos made at once in the process; a user at most one at a time. */
const PHOTO_SLOTS = 2;

/** Who blocked whom: written by people's REST, read by chat and calls. */
export function createBlocks(deps: Deps): BlocksRepository {
  return new BlocksRepository(deps.db);
}

export function createPeople(
  deps: Deps, users: UsersRepository, blocks: BlocksRepository = createBlocks(deps),
  blockChanged: (userId: number, otherId: number) => Promise<void> = () => Promise.resolve(),
): ServerFeature {
  const service = new PeopleService({
    users,
    photos: new PhotosRepository(deps.db),
    friends: new FriendsRepository(deps.db),
    blocks,
    blockChanged,
    presence: deps.cluster.presence,
    makePhoto: photoPool(PHOTO_SLOTS),
    clock: deps.clock,
  });
  return { routes: peopleRoutes(service) };
}
