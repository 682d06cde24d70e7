// The friends tab's, the profile card's and the settings' requests (docs/protocol.md, profiles,
// friends and blocks). Each change answers with the whole list, which replaces the one held; a
// failure is said once in words and logged for whoever debugs.
import type { PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, takeLatest, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api, type BlockedUser, type CreateRoomResponse, type Friend, type FriendRequest, type MyProfile, type StatusRequest, type StatusResponse } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { chatRoomPath } from '../../kernel/roomPaths';
import { ko } from '../../i18n/ko';
import { friendsActions as a, type PeopleFailure, type ProfilePerson } from './friendsSlice';

function* failed(what: PeopleFailure, context: string, error: unknown): SagaGenerator<void> {
  const logError = yield* service('logError');
  yield* call(logError, context, error);
  yield* put(a.failed(what));
}

function* loadFriends(): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const { profile, friends } = yield* all({ profile: call([http, http.get<MyProfile>], api.userProfile), friends: call([http, http.get<Friend[]>], api.friends) });
    yield* put(a.profileLoaded(profile));
    yield* put(a.friendsLoaded(friends));
  } catch (error) {
    yield* failed('load', 'friends', error);
  }
}

function* loadBlocks(): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    yield* put(a.blocksLoaded(yield* call([http, http.get<BlockedUser[]>], api.blocks)));
  } catch (error) {
    yield* failed('load', 'blocks', error);
  }
}

function* changeFriend(userId: number, body: FriendRequest | null): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const friends = body ? yield* call([http, http.put<Friend[]>], api.friend(userId), body) : yield* call([http, http.delete<Friend[]>], api.friend(userId));
    yield* put(a.friendsLoaded(friends));
  } catch (error) {
    yield* failed('friend', 'friend change', error);
  }
}

function* changeBlock(userId: number, block: boolean): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const blocks = block ? yield* call([http, http.put<BlockedUser[]>], api.block(userId)) : yield* call([http, http.delete<BlockedUser[]>], api.block(userId));
    yield* put(a.blocksLoaded(blocks));
    // Blocking also ends the friendship (docs/protocol.md, blocks): the friends as they are now.
    if (block) yield* put(a.friendsLoaded(yield* call([http, http.get<Friend[]>], api.friends)));
  } catch (error) {
    yield* failed('block', 'block change', error);
  }
}

/** As the user search starts a chat (docs/spec.md §2): the server opens the two people's room or makes it. */
function* startChat(action: PayloadAction<ProfilePerson>): SagaGenerator<void> {
  const http = yield* service('http');
  const { userId, name } = action.payload;
  try {
    const { chatRoomId } = yield* call([http, http.post<CreateRoomResponse>], api.roomCreate, { targetUserId: userId, targetUserName: name });
    const navigate = yield* service('navigate');
    yield* call(navigate, chatRoomPath(chatRoomId));
  } catch (error) {
    const logError = yield* service('logError');
    const alert = yield* service('alert');
    yield* call(logError, 'start chat', error);
    yield* call(alert, ko.userSearch.startFailed);
  } finally {
    yield* put(a.chatFinished());
  }
}

function* saveStatus(action: PayloadAction<string>): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const body: StatusRequest = { statusMessage: action.payload.trim() };
    const saved = yield* call([http, http.put<StatusResponse>], api.userStatus, body);
    yield* put(a.statusSaved(saved.statusMessage));
  } catch (error) {
    yield* failed('status', 'status message', error);
  }
}

function* deletePhoto(): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    yield* call([http, http.delete<unknown>], api.userPhoto);
    yield* put(a.photoChanged(null));
  } catch (error) {
    yield* failed('photo', 'photo delete', error);
  }
}

export function* friendsSaga(): SagaGenerator<void> {
  yield* takeLatest(a.friendsOpened, loadFriends);
  yield* takeLatest(a.blocksOpened, loadBlocks);
  yield* takeLeading(a.friendAddRequested, (action) => changeFriend(action.payload, {}));
  yield* takeLeading(a.favouriteRequested, (action) => changeFriend(action.payload.userId, { favourite: action.payload.favourite }));
  yield* takeLeading(a.friendRemoveRequested, (action) => changeFriend(action.payload, null));
  yield* takeLeading(a.blockRequested, (action) => changeBlock(action.payload, true));
  yield* takeLeading(a.unblockRequested, (action) => changeBlock(action.payload, false));
  yield* takeLeading(a.chatRequested, startChat);
  yield* takeLatest(a.statusSubmitted, saveStatus);
  yield* takeLeading(a.photoDeleteRequested, deletePhoto);
}
