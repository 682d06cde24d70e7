// Every feature's long-lived saga. Each is spawned, so one crashing does not stop the others.
import type { SagaIterator } from 'redux-saga';
import { all, spawn } from 'redux-saga/effects';
import { authSaga } from '../features/auth/authSaga';
import { callSaga } from '../features/call/callSaga';
import { chatListSaga } from '../features/chatList/chatListSaga';
import { attachmentSaga } from '../features/room/attachmentSaga';
import { roomSaga } from '../features/room/roomSaga';
import { userSearchSaga } from '../features/userSearch/userSearchSaga';
import { inviteSaga } from '../features/invite/inviteSaga';
import { preferencesSaga } from '../features/settings/preferencesSaga';
import { notificationsSaga } from '../features/notifications/notificationsSaga';
import { settingsSaga } from '../features/settings/settingsSaga';
import { signUpSaga } from '../features/signUp/signUpSaga';

// One line per feature saga.
export const featureSagas: Array<() => SagaIterator> = [
  authSaga,
  signUpSaga,
  settingsSaga,
  preferencesSaga,
  callSaga,
  chatListSaga,
  roomSaga,
  attachmentSaga,
  userSearchSaga,
  inviteSaga,
  notificationsSaga,
];

export function* rootSaga(): SagaIterator {
  yield all(featureSagas.map((saga) => spawn(saga)));
}
