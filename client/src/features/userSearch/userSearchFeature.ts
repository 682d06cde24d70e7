import type { Feature } from '../../kernel/feature';
import { userSearchSaga } from './userSearchSaga';
import { userSearchReducer } from './userSearchSlice';

/** Installed with /find-user. */
export const userSearchFeature: Feature = { name: 'userSearch', reducers: { userSearch: userSearchReducer }, sagas: [userSearchSaga] };
