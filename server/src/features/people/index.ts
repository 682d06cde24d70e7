// People, assembled (docs/protocol.md, profiles and friends): photos, status messages, friends.
import type { UsersRepository } from '../accounts/users-repository';
import type { Deps, ServerFeature } from '../types';
import { FriendsRepository } from './friends-repository';
import { peopleRoutes } from './people-routes';
import { PeopleService } from './people-service';
import { PhotosRepository } from './photos-repository';
import { photoPool } from './profile-photo';

/** Photos made at once in the process; a user at most one at a time. */
const PHOTO_SLOTS = 2;

export function createPeople(deps: Deps, users: UsersRepository): ServerFeature {
  const service = new PeopleService({
    users,
    photos: new PhotosRepository(deps.db),
    friends: new FriendsRepository(deps.db),
    presence: deps.cluster.presence,
    makePhoto: photoPool(PHOTO_SLOTS),
    clock: deps.clock,
  });
  return { routes: peopleRoutes(service) };
}
