// The people around the signed-in user (docs/protocol.md, profiles, friends and blocks): their own
// profile, their friends and the people they blocked, as the server last answered, and which
// change is being sent. The friends tab, the profile card and the settings read it.
import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BlockedUser, Friend, MyProfile } from '@common/api';

import type { ProfilePerson } from '../../kernel/profileCard';

export type { ProfilePerson };

/** What the profile card or the settings failed to do, in words for the user (i18n ko.people.failed). */
export type PeopleFailure = 'load' | 'friend' | 'block' | 'status' | 'photo';

export interface FriendsState {
  me: MyProfile | null;
  /** null until loaded. */
  friends: Friend[] | null;
  /** null until loaded. */
  blocks: BlockedUser[] | null;
  /** The person a change is being sent for (friend, favourite, block), so their buttons wait. */
  pendingUserId: number | null;
  savingStatus: boolean;
  failure: PeopleFailure | null;
}

const initialState: FriendsState = { me: null, friends: null, blocks: null, pendingUserId: null, savingStatus: false, failure: null };

const friendsSlice = createSlice({
  name: 'friends',
  initialState,
  reducers: {
    /** The friends tab or a profile card opened: the profile and friends again. */
    friendsOpened(state) {
      state.failure = null;
    },
    /** The settings or a profile card opened: who is blocked. */
    blocksOpened(state) {
      state.failure = null;
    },
    profileLoaded(state, action: PayloadAction<MyProfile>) {
      state.me = action.payload;
    },
    friendsLoaded(state, action: PayloadAction<Friend[]>) {
      state.friends = action.payload;
      state.pendingUserId = null;
    },
    blocksLoaded(state, action: PayloadAction<BlockedUser[]>) {
      state.blocks = action.payload;
      state.pendingUserId = null;
    },
    friendAddRequested(state, action: PayloadAction<number>) {
      state.pendingUserId = action.payload;
      state.failure = null;
    },
    friendRemoveRequested(state, action: PayloadAction<number>) {
      state.pendingUserId = action.payload;
      state.failure = null;
    },
    favouriteRequested(state, action: PayloadAction<{ userId: number; favourite: boolean }>) {
      state.pendingUserId = action.payload.userId;
      state.failure = null;
    },
    blockRequested(state, action: PayloadAction<number>) {
      state.pendingUserId = action.payload;
      state.failure = null;
    },
    unblockRequested(state, action: PayloadAction<number>) {
      state.pendingUserId = action.payload;
      state.failure = null;
    },
    /** 1:1 채팅: the two people's room, opened or made as the user search does. */
    chatRequested(state, action: PayloadAction<ProfilePerson>) {
      state.pendingUserId = action.payload.userId;
      state.failure = null;
    },
    chatFinished(state) {
      state.pendingUserId = null;
    },
    statusSubmitted(state, _action: PayloadAction<string>) {
      state.savingStatus = true;
      state.failure = null;
    },
    statusSaved(state, action: PayloadAction<string | null>) {
      state.savingStatus = false;
      if (state.me) state.me.statusMessage = action.payload;
    },
    /** A new photo (uploaded by the settings) or none (deleted). */
    photoChanged(state, action: PayloadAction<string | null>) {
      if (state.me) state.me.photoVersion = action.payload;
    },
    photoDeleteRequested(state) {
      state.failure = null;
    },
    failed(state, action: PayloadAction<PeopleFailure>) {
      state.failure = action.payload;
      state.pendingUserId = null;
      state.savingStatus = false;
    },
  },
});

export const friendsActions = friendsSlice.actions;
export const friendsReducer = friendsSlice.reducer;

interface WithFriends {
  friends: FriendsState;
}
export const selectFriendsState = (state: WithFriends) => state.friends;
export const selectMyProfile = (state: WithFriends) => state.friends.me;
export const selectBlocks = (state: WithFriends) => state.friends.blocks;

const byName = (a: Friend, b: Friend) => a.name.localeCompare(b.name, 'ko');

/** The friends tab's two sections, by name, filtered by what the search box holds (name or status, any case). */
export function friendSections(friends: readonly Friend[], filter: string): { favourites: Friend[]; others: Friend[] } {
  const needle = filter.trim().toLocaleLowerCase();
  const shown = friends
    .filter((f) => !needle || f.name.toLocaleLowerCase().includes(needle) || (f.statusMessage ?? '').toLocaleLowerCase().includes(needle))
    .sort(byName);
  return { favourites: shown.filter((f) => f.favourite), others: shown.filter((f) => !f.favourite) };
}

/** Whether a person is a friend (and a favourite), blocked, by the lists loaded (unknown: undefined). */
export const selectRelation = createSelector(
  [(state: WithFriends) => state.friends.friends, (state: WithFriends) => state.friends.blocks, (_state: WithFriends, userId: number) => userId],
  (friends, blocks, userId) => ({
    friend: friends?.find((f) => f.userId === userId),
    blocked: blocks?.some((b) => b.userId === userId),
  }),
);
