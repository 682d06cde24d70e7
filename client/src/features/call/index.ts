// What other features use of the call: its actions (notifications hear of an incoming call) and
// who a call is with. Other features import the call only here.
export { callActions } from './callSlice';
export type { CallPeer } from './callRules';
