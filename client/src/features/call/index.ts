// What other features use of the call: its actions (notifications hear of an incoming call), who
// a call is with, the 음성통화/영상통화 buttons and the call-record bubble. Other features import
// the call only here.
export { callActions } from './callSlice';
export type { CallPeer } from './callRules';
export type { CallStart } from './callSlice';
export { CallButtons } from './CallButtons';
export { CallRecordBubble } from './CallRecordBubble';
// The call's icons, for the group call's controls (features/groupCall).
export { MicIcon, PhoneIcon } from './icons';
export { CameraIcon, ScreenIcon } from './videoIcons';
