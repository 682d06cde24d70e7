import type { Feature } from '../../kernel/feature';
import { callHistorySaga } from './callHistorySaga';
import { callHistoryReducer } from './callHistorySlice';

/** Installed with 통화 기록 (/calls) only: the other screens carry none of it. */
export const callHistoryFeature: Feature = { name: 'callHistory', reducers: { callHistory: callHistoryReducer }, sagas: [callHistorySaga] };
