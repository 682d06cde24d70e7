import type { Feature } from '../../kernel/feature';
import { chatListSaga } from './chatListSaga';
import { chatListReducer } from './chatListSlice';

/** Installed with the chat screens' layout (the list is beside every chat screen on a desktop). */
export const chatListFeature: Feature = { name: 'chatList', reducers: { chatList: chatListReducer }, sagas: [chatListSaga], lateServices: true };
