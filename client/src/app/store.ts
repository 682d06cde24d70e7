// The Redux store: one slice per feature, sagas with their services in the middleware context.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { authReducer } from '../features/auth/authSlice';
import { callReducer } from '../features/call/callSlice';
import { chatListReducer } from '../features/chatList/chatListSlice';
import { liveReducer } from '../features/room/liveSlice';
import { readsReducer } from '../features/room/readsSlice';
import { roomReducer } from '../features/room/roomSlice';
import { messageSearchReducer } from '../features/messageSearch/messageSearchSlice';
import { userSearchReducer } from '../features/userSearch/userSearchSlice';
import { inviteReducer } from '../features/invite/inviteSlice';
import { preferencesReducer } from '../features/settings/preferencesSlice';
import { notificationsReducer } from '../features/notifications/notificationsSlice';
import { settingsReducer } from '../features/settings/settingsSlice';
import { signUpReducer } from '../features/signUp/signUpSlice';
import { rootSaga } from './rootSaga';
import type { Services } from './services';

// One line per feature slice: `key: reducer`. The key is the slice's name.
const reducers = {
  auth: authReducer,
  signUp: signUpReducer,
  settings: settingsReducer,
  preferences: preferencesReducer,
  call: callReducer,
  chatList: chatListReducer,
  room: roomReducer,
  reads: readsReducer,
  live: liveReducer,
  userSearch: userSearchReducer,
  invite: inviteReducer,
  notifications: notificationsReducer,
  messageSearch: messageSearchReducer,
};

const rootReducer = combineReducers(reducers);

export type RootState = ReturnType<typeof rootReducer>;

export function createAppStore(services: Services, preloadedState?: Partial<RootState>) {
  const sagaMiddleware = createSagaMiddleware({
    context: { ...services },
    onError: (error) => services.logError('saga', error),
  });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    // Sagas do the side effects; thunks would be a second way to do the same thing.
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware),
  });
  sagaMiddleware.run(rootSaga);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
