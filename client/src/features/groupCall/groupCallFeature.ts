import type { Feature } from '../../kernel/feature';
import { groupCallSaga } from './groupCallSaga';
import { groupCallReducer } from './groupCallSlice';

/** Installed on every signed-in screen with its host (the listener, the ring, the call). */
export const groupCallFeature: Feature = { name: 'groupCall', reducers: { groupCall: groupCallReducer }, sagas: [groupCallSaga], lateServices: true };
