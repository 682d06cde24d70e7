// What a push message shows: the service worker's notification for each PushPayload kind, worded
// from ko.ts. Pure, so it is tested without a service worker.
import type { CallMedia } from '@common/api';
import { shortenForPush, type PushPayload } from '@common/push';
import { koCall } from '../i18n/koCall';
import { koGroupCall } from '../i18n/koGroupCall';

export interface Notice {
  title: string;
  body: string;
  /** Replaces an earlier notification with the same tag (one per room, one for calls). */
  tag: string;
  /** The page a click opens when no tab of the app is open, or moves an open tab to. */
  url: string;
  /** An open tab is only focused, not moved (the call overlay shows on every screen). */
  focusOnly: boolean;
  /** A ringing call stays until the user acts on it. */
  requireInteraction: boolean;
}

export const CALL_NOTICE_TAG = 'call';

export function roomNoticeTag(chatRoomId: number): string {
  return `room-${chatRoomId}`;
}

/** Decodes a push's JSON; null for anything that is not one of ours. */
export function decodePushPayload(text: string): PushPayload | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const o = value as Record<string, unknown>;
  if (o.kind === 'incoming-call' && typeof o.callerId === 'number' && typeof o.callerName === 'string') {
    return { kind: 'incoming-call', callerId: o.callerId, callerName: o.callerName, media: o.media === 'video' ? 'video' : 'audio' };
  }
  if (o.kind === 'group-call' && typeof o.chatRoomId === 'number' && typeof o.callId === 'string' && (o.media === 'audio' || o.media === 'video') && typeof o.starterName === 'string') {
    return { kind: 'group-call', chatRoomId: o.chatRoomId, callId: o.callId, media: o.media, starterName: o.starterName };
  }
  if (o.kind === 'message' && typeof o.chatRoomId === 'number' && typeof o.messageId === 'number' && typeof o.senderName === 'string' && typeof o.content === 'string') {
    return { kind: 'message', chatRoomId: o.chatRoomId, messageId: o.messageId, senderName: o.senderName, content: o.content };
  }
  return null;
}

export function incomingCallNotice(callerName: string, media: CallMedia): Notice {
  // /chat-list: the app starts there, its call listener subscribes and the server rings it again.
  const body = `${koCall.incomingFrom(callerName)} · ${media === 'video' ? koCall.incomingVideo : koCall.incomingVoice}`;
  return { title: koCall.incomingTitle, body, tag: CALL_NOTICE_TAG, url: '/chat-list', focusOnly: true, requireInteraction: true };
}

export function groupCallNotice(chatRoomId: number, starterName: string): Notice {
  // The room: its banner offers the join; one notification per room's call, until acted on.
  return { title: koGroupCall.incomingTitle, body: koGroupCall.incomingFrom(starterName), tag: `group-call-${chatRoomId}`, url: `/chat-room?cri=${chatRoomId}`, focusOnly: false, requireInteraction: true };
}

export function messageNotice(chatRoomId: number, senderName: string, content: string): Notice {
  return { title: senderName, body: shortenForPush(content), tag: roomNoticeTag(chatRoomId), url: `/chat-room?cri=${chatRoomId}`, focusOnly: false, requireInteraction: false };
}

export function noticeFor(payload: PushPayload): Notice {
  if (payload.kind === 'incoming-call') return incomingCallNotice(payload.callerName, payload.media);
  if (payload.kind === 'group-call') return groupCallNotice(payload.chatRoomId, payload.starterName);
  return messageNotice(payload.chatRoomId, payload.senderName, payload.content);
}
