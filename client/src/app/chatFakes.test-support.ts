// A store that runs the real chat list, room, search and invite sagas and reducers with the
// shared fakes (app/fakeServices.ts). Used only by the chat tests.
import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { FakeStomp, type FakeHttp } from './fakeServices';
import type { NavigateOptions } from '../kernel/services';
import type { UidStore } from '../services/uid';
import { chatListSaga } from '../features/chatList/chatListSaga';
import { chatListReducer } from '../features/chatList/chatListSlice';
import { inviteSaga } from '../features/invite/inviteSaga';
import { inviteReducer } from '../features/invite/inviteSlice';
import { userSearchSaga } from '../features/userSearch/userSearchSaga';
import { userSearchReducer } from '../features/userSearch/userSearchSlice';
import { roomSaga } from '../features/room/roomSaga';
import { liveReducer } from '../features/room/liveSlice';
import { readsReducer } from '../features/room/readsSlice';
import { roomReducer } from '../features/room/roomSlice';
import { passOnReducer } from '../features/room/passOnSlice';
import { createMemoryUnsentStore, type UnsentStore } from '../features/room/unsentStore';

export function createChatTestStore(http: FakeHttp, uidValue: number | null = null, unsent: UnsentStore = createMemoryUnsentStore()) {
  const stomp = new FakeStomp();
  const alerts: string[] = [];
  const navigations: Array<{ to: string; options?: NavigateOptions }> = [];
  const errors: string[] = [];
  let stored = uidValue;
  const uid: UidStore = { read: () => stored, store: (id) => { stored = id; }, clear: () => { stored = null; } };
  const sagaMiddleware = createSagaMiddleware({
    context: {
      http,
      stomp,
      uid,
      unsent,
      alert: (message: string) => alerts.push(message),
      navigate: (to: string, options?: NavigateOptions) => navigations.push({ to, options }),
      logError: (context: string, error: unknown) => errors.push(`${context}: ${error instanceof Error ? error.message : String(error)}`),
    },
  });
  const store = configureStore({
    reducer: { room: roomReducer, reads: readsReducer, live: liveReducer, passOn: passOnReducer, chatList: chatListReducer, userSearch: userSearchReducer, invite: inviteReducer },
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  const tasks = [roomSaga, chatListSaga, userSearchSaga, inviteSaga].map((saga) => sagaMiddleware.run(saga));
  return {
    store,
    stomp,
    http,
    alerts,
    navigations,
    errors,
    unsent,
    storedUid: () => stored,
    stop: () => tasks.forEach((t) => t.cancel()),
  };
}
