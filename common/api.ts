// REST paths, request and response types (docs/spec.md §3 and §7).

export const api = {
  login: '/api/user/login',
  logout: '/api/user/logout',
  userId: '/api/user/id',
  signUp: '/api/user/sign-up',
  userInfo: '/api/user/info',
  /** Ours: GET and PATCH the user's preferences. */
  preferences: '/api/user/preferences',
  userSearch: '/api/user/search',
  /** Ours: messages of the user's rooms containing a keyword. */
  messageSearch: '/api/search/messages',
  oauthLogin: (provider: OAuthProvider) => `/api/oauth/${provider}/login`,
  oauthCallback: (provider: OAuthProvider) => `/api/oauth/${provider}/callback`,
  verificationSend: '/api/email/verification/send',
  verificationVerify: '/api/email/verification/verify',
  notificationSend: '/api/email/notification/send',
  chats: '/api/chat-list/chats',
  nameAndEmail: '/api/chat-list/name-and-email',
  roomCreate: '/api/chat-room/create',
  chatHistory: '/api/chat-room/chat-history',
  updateSubject: '/api/chat-room/update-subject',
  leaveChat: '/api/chat-room-user/leave-chat',
  roomSearch: '/api/chat-room/search',
  addUser: '/api/chat-room/add-user',
  /** Ours: POST a file's raw bytes (?chatRoomId=N, X-File-Name) before sending it in a message. */
  attachmentUpload: '/api/chat-room/attachments',
  /** Ours: GET an attachment, or its thumbnail. */
  attachment: (attachmentId: string) => `/api/attachments/${attachmentId}`,
  /** Ours: GET a link preview's image, fetched once and served by us. */
  linkPreviewImage: (previewId: string) => `/api/link-previews/${previewId}/image`,
  attachmentThumbnail: (attachmentId: string) => `/api/attachments/${attachmentId}/thumbnail`,
  /** Ours: GET a room's drawer (?chatRoomId=&kind=photo|file|link&before=): MediaPage, newest first. */
  roomMedia: '/api/chat-room/media',
  iceServers: '/api/call/ice-servers',
  /** Ours: the signed-in user's call record, newest first (?before={callId}&limit={n}). */
  calls: '/api/calls',
  /** Ours: PUT the signed-in user's profile photo (the image as the body), DELETE it. */
  userPhoto: '/api/user/photo',
  /** Ours: GET a user's profile photo (?size=small|large). */
  photoOf: (userId: number | string) => `/api/users/${userId}/photo`,
  /** Ours: PUT the signed-in user's status message. */
  userStatus: '/api/user/status',
  /** Ours: GET the signed-in user's own profile (name, photo, status). */
  userProfile: '/api/user/profile',
  /** Ours: GET the signed-in user's friends. */
  friends: '/api/friends',
  /** Ours: PUT (add, or set favourite) and DELETE one friend. */
  friend: (userId: number | string) => `/api/friends/${userId}`,
  /** Ours: PATCH the signed-in member's settings of one room (muted, pinned). */
  roomSettings: '/api/chat-room/settings',
  /** Ours (issue 27): POST, the signed-in user's own memo room (나와의 채팅), made on first use: {chatRoomId}. */
  selfRoom: '/api/chat-room/self',
  /** Ours: GET the people the signed-in user blocked. */
  blocks: '/api/blocks',
  /** Ours: PUT (block) and DELETE (unblock) one person. */
  block: (userId: number | string) => `/api/blocks/${userId}`,
  /** Ours: PUT a room's notice ({chatRoomId, messageId}), DELETE it (?chatRoomId=). */
  roomNotice: '/api/chat-room/notice',
  /** Ours: GET a room's group call (?chatRoomId=): common/group-call.ts GroupCallStateResponse. */
  groupCall: '/api/chat-room/group-call',
  pushPublicKey: '/api/push/public-key',
  pushSubscriptions: '/api/push/subscriptions',
  healthz: '/healthz',
} as const;

export type OAuthProvider = 'google' | 'kakao';
export const OAUTH_PROVIDERS: readonly OAuthProvider[] = ['google', 'kakao'];

export interface LoginRequest { email: string; password: string }
export interface LoginResponse { name: string; userId: number }
export interface OAuthStartResponse { url: string }
export interface UserIdResponse { userId: number }
export interface NameAndEmail { name: string; email: string }
export interface UserSummary {
  userId: number;
  name: string;
  email: string;
  /** Ours (room members in history, search results): the user has at least one open connection. */
  online?: boolean;
  /** Ours: changes with every profile photo (GET photoOf(userId)); null when the user has none. */
  photoVersion?: string | null;
  /** Ours: the user's status message; null when none. */
  statusMessage?: string | null;
}

/** Ours: the sizes of a profile photo: small (96 px) and large (512 px) squares. */
export type PhotoSize = 'small' | 'large';
export const PHOTO_SIZES: readonly PhotoSize[] = ['small', 'large'];
/** Ours: PUT /api/user/photo's answer. */
export interface PhotoResponse { photoVersion: string }
/** Ours: PUT /api/user/status's body and answer (an empty message clears it: null). */
export interface StatusRequest { statusMessage: string }
export interface StatusResponse { statusMessage: string | null }
/** Ours: GET /api/user/profile. */
export interface MyProfile { userId: number; name: string; photoVersion: string | null; statusMessage: string | null }
/** Ours: one friend of GET /api/friends. */
export interface Friend { userId: number; name: string; photoVersion: string | null; statusMessage: string | null; favourite: boolean; online: boolean }
/** Ours: PUT /api/friends/{userId}'s body (optional: {} adds without changing favourite). */
export interface FriendRequest { favourite?: boolean }
/** Ours: PATCH /api/chat-room/settings's body (at least one of muted, pinned) and answer. */
export interface RoomSettingsRequest { chatRoomId: number; muted?: boolean; pinned?: boolean }
export interface RoomSettings { chatRoomId: number; muted: boolean; pinned: boolean }
/** Ours: someone the signed-in user blocked (GET /api/blocks), by name. */
export interface BlockedUser { userId: number; name: string; photoVersion: string | null }
/** Ours: PUT /api/chat-room/notice. */
export interface NoticeRequest { chatRoomId: number; messageId: number }
/** Ours: a room's notice: one of its messages, as it reads now, and who made it the notice when. */
export interface RoomNotice { messageId: number; content: string; setByName: string; setAt: string }
export interface SignUpRequest { name: string; password: string; email: string }
export interface SignUpResponse { name: string }
/**
 * `password` is the spec's one field, "current or new password". When it is a new password, the
 * server also needs `currentPassword` (ours; not needed for an account that has none yet).
 */
export interface UpdateInfoRequest { name: string; password: string; currentPassword?: string }
export interface UpdateInfoResponse { status: 'success' | 'name' }
/** Ours: the user's preferences; sendTyping: others see when the user is typing (default true). */
export interface Preferences { sendTyping: boolean }
export interface ErrorResponse { error: string; message: string }

export interface ChatSummary {
  chatRoomId: number;
  chatRoomName: string;
  lastMessage: string | null;
  lastMessageTime: string | null;
  lastReadAt: string | null;
  /** Ours: messages after the user's read position (never their own). */
  unreadCount?: number;
  /** Ours: the seq of the room's newest message, 0 when it has none. */
  lastSeq?: number;
  /** Ours: how many members the room has (2: a conversation with one person). */
  memberCount?: number;
  /** Ours, present only when true: the member muted the room (no Web Push for its messages). */
  muted?: true;
  /** Ours, present only when true: the member pinned the room; pinned rooms come first. */
  pinned?: true;
  /** Ours, present only when true: an unread message of the room mentions the member. */
  mentioned?: true;
  /** Ours, present only in a two-member room: the other member (their photo on the row). */
  peer?: ChatPeer;
  /** Ours, present only while a group call is on in the room (issue 25). */
  groupCall?: ChatRowGroupCall;
  /** Ours, present only when true: the user's own memo room (나와의 채팅, POST /api/chat-room/self), listed first. */
  self?: true;
}

/** Ours: the other member of a two-member room, on its chat-list row. */
export interface ChatPeer { userId: number; photoVersion: string | null }
/** Ours: a group call going on in a room, on its chat-list row. */
export interface ChatRowGroupCall { media: CallMedia; participantCount: number }

/** Ours: what a call sends and receives: voice only, or voice and video. */
export type CallMedia = 'audio' | 'video';
export const CALL_MEDIA: readonly CallMedia[] = ['audio', 'video'];
/**
 * Ours: how a call ended. answered: it was accepted (however it ended after). missed: it rang
 * out, or the callee was busy or unavailable. rejected: the callee turned it down. cancelled: the
 * caller hung up while it rang.
 */
export type CallOutcome = 'answered' | 'missed' | 'rejected' | 'cancelled';
export const CALL_OUTCOMES: readonly CallOutcome[] = ['answered', 'missed', 'rejected', 'cancelled'];

/**
 * The structured form of a system message. The stored `content` keeps the original product's
 * exact Korean text (its client parses it); our client renders from these fields instead.
 * renamed: actor renamed the room to newName. added: actor added target. left: actor left.
 * call (ours): a call between the room's two people ended (CallSystemEvent).
 * groupCall (ours): the room's group call ended (GroupCallSystemEvent).
 */
export type SystemEventType = 'renamed' | 'added' | 'left' | 'call' | 'groupCall';
export type SystemEvent = MemberSystemEvent | CallSystemEvent | GroupCallSystemEvent;
export interface MemberSystemEvent {
  type: 'renamed' | 'added' | 'left';
  actorUserId: number;
  actorName: string;
  /** added: the user who was added. */
  targetUserId?: number;
  targetName?: string;
  /** renamed: the room's new name. */
  newName?: string;
}
/**
 * Ours: the record of a call in the two people's room. durationSec counts from the accept to
 * the end (0 when never answered); callerUserId tells each viewer which way it went. The actor
 * is the caller too (the message's author, who has read up to it), so code that reads any system
 * event's actor keeps working.
 */
export interface CallSystemEvent {
  type: 'call';
  actorUserId: number;
  actorName: string;
  media: CallMedia;
  outcome: CallOutcome;
  durationSec: number;
  callerUserId: number;
}

/**
 * Ours: the record of a room's group call, posted when its last participant left (or its media
 * server was lost). The actor is whoever started it; participantCount counts everyone who took
 * part; durationSec runs from the start to the end.
 */
export interface GroupCallSystemEvent {
  type: 'groupCall';
  actorUserId: number;
  actorName: string;
  media: CallMedia;
  durationSec: number;
  participantCount: number;
}

/** One chat message in history; on the room topic it is payloads.ts ChatMessageEvent. */
export interface ChatMessage {
  messageId: number;
  chatRoomId?: number;
  /**
   * Ours: the message's place in its room, gap-free from 1 in commit order (0 for the leave of
   * a room deleted with it). Its author (senderId, or a system message's actor) has read the
   * room up to it.
   */
  seq?: number;
  senderId: number | null;
  senderName: string;
  content: string;
  enrolledAt: string;
  clientMsgId?: string | null;
  leftUserId?: number;
  addedUserEmail?: string;
  /** Present on system messages only (senderId null). */
  systemEvent?: SystemEvent;
  /** Ours: when the text was last edited (ISO); absent if never. */
  editedAt?: string;
  /** Ours: deleted for everyone; content is then empty. */
  deleted?: true;
  /** Ours: the message this one replies to, as it reads now. */
  replyTo?: ReplyQuote;
  /** Ours: who reacted with what (absent when nobody did), in the order first given. */
  reactions?: ReactionSummary[];
  /** Ours: the photo or file sent with the message (absent once the message is deleted); of several photos, the first. */
  attachment?: Attachment;
  /** Ours: the photos a message sent at once (attachmentIds), in order; absent for one attachment or none. */
  attachments?: Attachment[];
  /** Ours: the room's change counter when this message last changed (edit, delete, reaction); absent if never. */
  changeSeq?: number;
  /** Ours: the members the message mentions (@), absent when none. */
  mentions?: number[];
  /** Ours: the preview of the message's first link, once the server fetched it (absent otherwise). */
  linkPreview?: LinkPreview;
  /** Ours (issue 27), present only when true: forwarded from another message (/app/forward-message); shown as 전달됨. */
  forwarded?: true;
}

/**
 * Ours (docs/protocol.md, link previews): what a page says of itself (Open Graph, Twitter card,
 * <title>). Any field but url may be null; imageUrl is ours (GET /api/link-previews/{id}/image).
 */
export interface LinkPreview { url: string; title: string | null; description: string | null; siteName: string | null; imageUrl: string | null }

/** Ours: a reply's quote of the original: at most 100 characters, or the deleted text. */
export interface ReplyQuote { messageId: number; senderName: string; content: string; deleted?: true; blocked?: true }

/** Ours: one reaction on a message and who gave it. */
export interface ReactionSummary { emoji: string; userIds: number[] }


/** A member in history: ours, lastReadSeq, their read position (every message up to it is read). */
export type RoomUser = UserSummary & { lastReadSeq?: number };

export interface ChatHistoryResponse {
  totalPages: number;
  chatRoomName: string;
  /**
   * Ours: someone renamed the room, so `chatRoomName` is the same for everyone; when false it is
   * the viewer's name for it (common/room-names.ts), which a client names again as members change.
   */
  renamed?: boolean;
  users: RoomUser[];
  messages: ChatMessage[];
  /** Ours, with afterSeq or changedSince only: more messages follow the ones answered. */
  hasMore?: boolean;
  /**
   * Ours: the room's change counter (edits, deletions, reactions) as this answer saw it; a
   * reconnecting client asks `changedSince` it to learn what changed while it was away.
   */
  lastChangeSeq?: number;
  /** Ours: the room's notice, null when it has none (every form of the history answer). */
  notice?: RoomNotice | null;
}

/**
 * Ours: an uploaded file, as POST /api/chat-room/attachments answers it and as a message carries
 * it. Images the server could read have a thumbnail (at most 400 px, WebP) and their size in
 * pixels, upright.
 */
export interface Attachment {
  /** Opaque: 22 characters of base64url (128 random bits), never a counter. */
  attachmentId: string;
  name: string;
  size: number;
  contentType: string;
  url: string;
  thumbnailUrl?: string;
  width?: number;
  height?: number;
  /** Ours: 'voice' for a voice message (uploaded with kind=voice); absent for photos and files. */
  kind?: 'voice';
  /** Ours, voice only: the recording's length in milliseconds, read by the server. */
  durationMs?: number;
  /** Ours, voice only: 64 levels, 0..255 (the peak of each 64th of the recording, the loudest 255). */
  waveform?: number[];
}

/** Ours: the tabs of a room's drawer (GET /api/chat-room/media). */
export const MEDIA_KINDS = ['photo', 'file', 'link'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * Ours: one item of a room's drawer: a photo or a file of a message (`attachment`), or a
 * message's first link (`url`, with its preview once fetched). `cursor` is the `before` of the
 * next page when this item is the last one answered.
 */
export interface MediaItem {
  cursor: string;
  messageId: number;
  seq: number;
  senderId: number | null;
  senderName: string;
  sentAt: string;
  attachment?: Attachment;
  url?: string;
  linkPreview?: LinkPreview;
}

/** Ours: a page of a room's drawer, newest first. */
export interface MediaPage { items: MediaItem[]; hasMore: boolean }

export interface CreateRoomResponse { chatRoomId: number }
export interface RoomSearchResponse { allUsers: UserSummary[]; chatRoomUsers: number[] }

export interface IceServer { urls: string | string[]; username?: string; credential?: string }

/** Ours: one message found by GET /api/search/messages. */
export interface MessageSearchResult {
  chatRoomId: number;
  chatRoomName: string;
  messageId: number;
  seq: number;
  senderName: string;
  content: string;
  enrolledAt: string;
}

/** Ours: a page of found messages, newest first; `hasMore` when older ones follow (ask with beforeId). */
export interface MessageSearchResponse { results: MessageSearchResult[]; hasMore: boolean }

/** Ours: one call of GET /api/calls, seen from the signed-in user (direction, peer). */
export interface CallRecord {
  callId: number;
  peerUserId: number;
  peerName: string;
  /** Ours: the peer's profile photo version (api.photoOf); null when none. */
  peerPhotoVersion?: string | null;
  media: CallMedia;
  direction: 'outgoing' | 'incoming';
  outcome: CallOutcome;
  /** When the call was initiated (ISO). */
  startedAt: string;
  durationSec: number;
}

/** Ours: a page of the user's calls, newest first; `hasMore` when older ones follow (ask with before). */
export interface CallsResponse { calls: CallRecord[]; hasMore: boolean }
