import type { Feature } from '../../kernel/feature';
import { signUpSaga } from './signUpSaga';
import { signUpReducer } from './signUpSlice';

/** Installed with /sign-up. */
export const signUpFeature: Feature = { name: 'signUp', reducers: { signUp: signUpReducer }, sagas: [signUpSaga] };
