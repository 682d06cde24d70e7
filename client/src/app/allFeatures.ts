// Every feature but auth (which the store always has), in the order their sagas used to start:
// the tests' stores install them all at once.
import { callFeature } from '../features/call/callFeature';
import { callHistoryFeature } from '../features/call/callHistoryFeature';
import { chatListFeature } from '../features/chatList/chatListFeature';
import { groupCallFeature } from '../features/groupCall/groupCallFeature';
import { friendsFeature } from '../features/friends/friendsFeature';
import { messageSearchFeature } from '../features/messageSearch/messageSearchFeature';
import { inviteFeature } from '../features/invite/inviteFeature';
import { notificationsFeature } from '../features/notifications/notificationsFeature';
import { roomFeature } from '../features/room/roomFeature';
import { settingsFeature } from '../features/settings/settingsFeature';
import { signUpFeature } from '../features/signUp/signUpFeature';
import { userSearchFeature } from '../features/userSearch/userSearchFeature';
import type { Feature } from '../kernel/feature';

export const allFeatures: readonly Feature[] = [
  signUpFeature,
  settingsFeature,
  callFeature,
  callHistoryFeature,
  chatListFeature,
  roomFeature,
  userSearchFeature,
  inviteFeature,
  notificationsFeature,
  messageSearchFeature,
  groupCallFeature,
  friendsFeature,
];
