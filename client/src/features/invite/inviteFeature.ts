import type { Feature } from '../../kernel/feature';
import { inviteSaga } from './inviteSaga';
import { inviteReducer } from './inviteSlice';

/** Installed with /invite. */
export const inviteFeature: Feature = { name: 'invite', reducers: { invite: inviteReducer }, sagas: [inviteSaga] };
