// What the rest of the client uses of auth: its slice and saga, in the store from the start
// (app/store.ts), and the logout any screen may ask for. Other features import auth only here.
export { authReducer, logoutRequested } from './authSlice';
export { authSaga } from './authSaga';
