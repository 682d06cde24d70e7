// The Redux store: the auth slice from the start, every other feature's slices and sagas
// installed when a screen first needs them (kernel/feature.ts, app/lazyWithFeatures.tsx), with
// their services in the saga middleware's context.
import { combineSlices, configureStore, createAction, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { authReducer, authSaga } from '../features/auth';
import type { callReducer } from '../features/call/callSlice';
import type { callHistoryReducer } from '../features/call/callHistorySlice';
import type { chatListReducer } from '../features/chatList/chatListSlice';
import type { liveReducer } from '../features/room/liveSlice';
import type { readsReducer } from '../features/room/readsSlice';
import type { roomReducer } from '../features/room/roomSlice';
import type { messageSearchReducer } from '../features/messageSearch/messageSearchSlice';
import type { userSearchReducer } from '../features/userSearch/userSearchSlice';
import type { inviteReducer } from '../features/invite/inviteSlice';
import type { preferencesReducer } from '../features/settings/preferencesSlice';
import type { notificationsReducer } from '../features/notifications/notificationsSlice';
import type { settingsReducer } from '../features/settings/settingsSlice';
import type { signUpReducer } from '../features/signUp/signUpSlice';
import type { Feature } from '../kernel/feature';
import type { CoreServices, LateServices } from '../kernel/services';

/** The slices installed later, one line per slice: `key: state`. The key is the slice's name. */
interface LateState {
  signUp: ReturnType<typeof signUpReducer>;
  settings: ReturnType<typeof settingsReducer>;
  preferences: ReturnType<typeof preferencesReducer>;
  call: ReturnType<typeof callReducer>;
  callHistory: ReturnType<typeof callHistoryReducer>;
  chatList: ReturnType<typeof chatListReducer>;
  room: ReturnType<typeof roomReducer>;
  reads: ReturnType<typeof readsReducer>;
  live: ReturnType<typeof liveReducer>;
  userSearch: ReturnType<typeof userSearchReducer>;
  invite: ReturnType<typeof inviteReducer>;
  notifications: ReturnType<typeof notificationsReducer>;
  messageSearch: ReturnType<typeof messageSearchReducer>;
}

/**
 * Every slice. A late slice is in the state once its feature is installed, and its feature is
 * installed before any screen or saga that reads it runs, so the state is typed as complete.
 */
export type RootState = { auth: ReturnType<typeof authReducer> } & LateState;

/** Dispatched once a feature's slices are in: the state holds their initial values before anything renders them. */
export const featureInstalled = createAction<string>('app/featureInstalled');

export interface StoreOptions {
  /** Installed at once (tests install every feature; app/allFeatures.ts). */
  features?: readonly Feature[];
  preloadedState?: Partial<RootState>;
  /** Loads the late services (the browser's: a chunk of their own); without it the services given are complete. */
  loadLateServices?: () => Promise<LateServices>;
}

export function createAppStore(services: CoreServices & Partial<LateServices>, options: StoreOptions = {}) {
  const rootReducer = combineSlices({ auth: authReducer }).withLazyLoadedSlices<LateState>();
  const injectSlices = (feature: Feature) => {
    // A feature's keys are its slices' names, which LateState lists; TypeScript cannot pair each key with its reducer here.
    for (const [reducerPath, reducer] of Object.entries(feature.reducers)) rootReducer.inject({ reducerPath, reducer } as Parameters<typeof rootReducer.inject>[0]);
  };
  const early = options.features ?? [];
  early.forEach(injectSlices);

  const sagaMiddleware = createSagaMiddleware({
    context: { ...services },
    onError: (error) => services.logError('saga', error),
  });
  // RTK types every lazily injected slice as optional (a combined reducer cannot know what was
  // injected); RootState states the app's invariant instead: a feature's slices are injected
  // before any screen or saga that reads them runs. TypeScript cannot check an order of events,
  // so one assertion says it: a plain `as` (no `unknown` in between), which TypeScript still
  // refuses unless the two reducer types are comparable.
  const reducer = rootReducer as Reducer<RootState, UnknownAction, Partial<RootState>>;
  const store = configureStore({
    reducer,
    preloadedState: options.preloadedState,
    // Sagas do the side effects; thunks would be a second way to do the same thing.
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware),
  });

  const installed = new Map<Feature, Promise<void>>();
  const done = new Set<Feature>();
  const start = (feature: Feature, slicesIn: boolean) => {
    if (!slicesIn) injectSlices(feature);
    store.dispatch(featureInstalled(feature.name));
    for (const saga of feature.sagas) sagaMiddleware.run(saga);
    done.add(feature);
  };
  let lateServices: Promise<void> | null = null;
  const lateServicesReady = (): Promise<void> =>
    (lateServices ??= options.loadLateServices ? options.loadLateServices().then((late) => sagaMiddleware.setContext({ ...late })) : Promise.resolve());

  sagaMiddleware.run(authSaga);
  for (const feature of early) {
    start(feature, true);
    installed.set(feature, Promise.resolve());
  }

  return Object.assign(store, {
    /** Installs a feature once (its slices, then its sagas, after the late services it needs). */
    installFeature(feature: Feature): Promise<void> {
      let installing = installed.get(feature);
      if (!installing) {
        installing = (feature.lateServices ? lateServicesReady() : Promise.resolve()).then(() => start(feature, false));
        installed.set(feature, installing);
      }
      return installing;
    },
    isInstalled: (feature: Feature): boolean => done.has(feature),
    /** Starts loading the late services ahead of the features that need them. */
    prefetchLateServices: (): void => void lateServicesReady().catch(() => {}),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
