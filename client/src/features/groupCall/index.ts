// What other features use of group calls: the room's '그룹통화' button and banner, and which
// rooms have a call on (for the chat list's mark). Other features import group calls only here.
export { GroupCallBanner, GroupCallButton } from './GroupCallEntry';
export { selectRoomsWithGroupCall } from './groupCallSlice';
