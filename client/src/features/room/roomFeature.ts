import type { Feature } from '../../kernel/feature';
import { liveReducer } from './liveSlice';
import { readsReducer } from './readsSlice';
import { roomSaga } from './roomSaga';
import { roomReducer } from './roomSlice';
import { passOnReducer } from './passOnSlice';

/** Installed with /chat-room: the room session, its read counts, typing, presence and uploads. */
export const roomFeature: Feature = {
  name: 'room',
  reducers: { room: roomReducer, reads: readsReducer, live: liveReducer, passOn: passOnReducer },
  sagas: [roomSaga],
  lateServices: true,
};
