import type { Feature } from '../../kernel/feature';
import { callSaga } from './callSaga';
import { callReducer } from './callSlice';

/** Installed on every signed-in screen (the call listener, CallHost) and with /call. */
export const callFeature: Feature = { name: 'call', reducers: { call: callReducer }, sagas: [callSaga], lateServices: true };
