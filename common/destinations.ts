// Every STOMP destination of docs/spec.md §7: builders and patterns. No other file spells these
// out as literals.

/** The original product's call signals (docs/spec.md §7); its client subscribes to these alone. */
export const ORIGINAL_CALL_SIGNALS = ['incoming', 'accepted', 'rejected', 'offer', 'answer', 'ice-candidate', 'hangup'] as const;
/**
 * Every call signal: the original ones, then ours (docs/protocol.md "Call events"): ringing,
 * media-state, peer-reconnecting, resume. A client that never subscribes to ours sees no change.
 */
export const CALL_SIGNALS = [...ORIGINAL_CALL_SIGNALS, 'ringing', 'media-state', 'peer-reconnecting', 'resume'] as const;
export type CallSignal = (typeof CALL_SIGNALS)[number];
/** Ours: a group call's signals on the same queues (common/group-call.ts), apart from the 1:1 call's. */
export const GROUP_CALL_SIGNALS = ['group-incoming', 'group-signal'] as const;
export type GroupCallSignalName = (typeof GROUP_CALL_SIGNALS)[number];
export type QueueSignal = CallSignal | GroupCallSignalName;

export const WEBSOCKET_PATH = '/websocket';

export const topics = {
  privateChat: (chatRoomId: number | string) => `/topic/private-chat/${chatRoomId}`,
  toggleRefresh: (userId: number | string) => `/topic/toggle-refresh/${userId}`,
  /** Ours: read positions, typing and presence of a room's members (payloads.ts RoomEvent). */
  chatRoomEvents: (chatRoomId: number | string) => `/topic/chat-room-events/${chatRoomId}`,
};

export const queues = {
  call: (signal: QueueSignal, userId: number | string) => `/queue/call/${signal}/${userId}`,
};

export const app = {
  privateMessage: '/app/private-message',
  userActive: '/app/user-active',
  userInactive: '/app/user-inactive',
  /** Ours: the user has read the room up to a seq. */
  read: '/app/read',
  /** Ours: the user is typing in a room. */
  typing: '/app/typing',
  /** Ours: edit one's own message. */
  editMessage: '/app/edit-message',
  /** Ours: delete one's own message for everyone (within 24 hours). */
  deleteMessage: '/app/delete-message',
  /** Ours: set or clear a reaction on a message. */
  reaction: '/app/reaction',
  /** Ours (issue 27): forward a message to up to 10 of the sender's rooms. */
  forwardMessage: '/app/forward-message',
  /** Ours (issue 27): delete a message for oneself only (hide it from one's own history and search). */
  hideMessage: '/app/hide-message',
  callInitiate: '/app/call/initiate',
  callAccept: '/app/call/accept',
  callReject: '/app/call/reject',
  callOffer: '/app/call/offer',
  callAnswer: '/app/call/answer',
  callIceCandidate: '/app/call/ice-candidate',
  callHangup: '/app/call/hangup',
  /** Ours: the sender's microphone, camera and screen share, relayed to the peer of an active call. */
  callMediaState: '/app/call/media-state',
  /** Ours: group calls (common/group-call.ts). */
  groupCallStart: '/app/group-call/start',
  groupCallJoin: '/app/group-call/join',
  groupCallLeave: '/app/group-call/leave',
  groupCallMediaState: '/app/group-call/media-state',
  groupCallSignal: '/app/group-call/signal',
} as const;

const ID = '([1-9][0-9]{0,15})';
export const patterns = {
  privateChat: new RegExp(`^/topic/private-chat/${ID}$`),
  toggleRefresh: new RegExp(`^/topic/toggle-refresh/${ID}$`),
  chatRoomEvents: new RegExp(`^/topic/chat-room-events/${ID}$`),
  callQueue: new RegExp(`^/queue/call/(${[...CALL_SIGNALS, ...GROUP_CALL_SIGNALS].join('|')})/${ID}$`),
};

export type ParsedDestination =
  | { kind: 'privateChat'; chatRoomId: number }
  | { kind: 'toggleRefresh'; userId: number }
  | { kind: 'chatRoomEvents'; chatRoomId: number }
  | { kind: 'callQueue'; signal: QueueSignal; userId: number }
  | { kind: 'unknown' };

export function parseSubscriptionDestination(destination: string): ParsedDestination {
  let m = patterns.privateChat.exec(destination);
  if (m) return { kind: 'privateChat', chatRoomId: Number(m[1]) };
  m = patterns.chatRoomEvents.exec(destination);
  if (m) return { kind: 'chatRoomEvents', chatRoomId: Number(m[1]) };
  m = patterns.toggleRefresh.exec(destination);
  if (m) return { kind: 'toggleRefresh', userId: Number(m[1]) };
  m = patterns.callQueue.exec(destination);
  if (m) return { kind: 'callQueue', signal: m[1] as QueueSignal, userId: Number(m[2]) };
  return { kind: 'unknown' };
}
