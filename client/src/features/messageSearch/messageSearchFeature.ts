import type { Feature } from '../../kernel/feature';
import { messageSearchSaga } from './messageSearchSaga';
import { messageSearchReducer } from './messageSearchSlice';

/** Installed with the chat screens' layout: the chat list (all rooms) and the room (this room) both search. */
export const messageSearchFeature: Feature = { name: 'messageSearch', reducers: { messageSearch: messageSearchReducer }, sagas: [messageSearchSaga] };
