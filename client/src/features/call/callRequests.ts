// The one call action other screens dispatch (the 음성통화/영상통화 buttons, a record's call back),
// on its own so that those screens' chunks carry neither the call slice nor its rules; the call
// saga takes it (callSlice.ts re-exports it among callActions).
import { createAction } from '@reduxjs/toolkit';
import type { CallMedia } from '@common/api';
import type { CallPeer } from './callRules';

export const callRequested = createAction('call/callRequested', (peer: CallPeer, media: CallMedia = 'audio') => ({ payload: { ...peer, media } }));
