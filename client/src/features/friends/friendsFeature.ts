import type { Feature } from '../../kernel/feature';
import { friendsSaga } from './friendsSaga';
import { friendsReducer } from './friendsSlice';

/** Installed with the friends tab, the profile card and the settings: the people around the user. */
export const friendsFeature: Feature = { name: 'friends', reducers: { friends: friendsReducer }, sagas: [friendsSaga] };
