// What other features use of the open room: its events (a message received, a message deleted
// for everyone) and which room is open. Other features import the room only here.
export { messageDeletedInRoom, messageReceived, roomOpened, roomSettingsChanged, selectOpenRoomId, selectOpenRoomMuted } from './roomSlice';
