// Sends the server has not confirmed yet, kept in local storage per user and room so that a
// failed message survives a reload of the page until it is sent or deleted. A reply keeps its
// quote and a photo or file its attachment, so the send after the reload is the same message.
import type { Attachment } from '@common/api';
import { decodeAttachment, decodeReplyQuote } from '@common/events';
import { LIMITS } from '@common/rules';
import type { PendingMessage } from './messages';

export interface UnsentStore {
  read(userId: number, chatRoomId: number): PendingMessage[];
  /** Replaces the room's list; an empty list removes the entry. */
  write(userId: number, chatRoomId: number, messages: readonly PendingMessage[]): void;
}

// The room's own service, in the saga context beside the shared ones: added to the kernel's
// LateServices here, so the kernel names no room type (app/lateServices.ts provides it).
declare module '../../kernel/services' {
  interface LateServices {
    /** Sends not yet confirmed, per user and room, kept across reloads (local storage). */
    unsent: UnsentStore;
  }
}

/** A room keeps at most this many unsent messages (the oldest go first): storage is small. */
export const MAX_UNSENT_PER_ROOM = 50;

export function unsentKey(userId: number, chatRoomId: number): string {
  return `unsent:${userId}:${chatRoomId}`;
}

/** What is kept of a pending message: the message itself, not the state of its sends. */
function kept({ clientMsgId, content, createdAt, replyTo, attachment, attachments }: PendingMessage): PendingMessage {
  return { clientMsgId, content, createdAt, ...(replyTo ? { replyTo } : {}), ...(attachment ? { attachment } : {}), ...(attachments && attachments.length > 1 ? { attachments } : {}) };
}

/** A stored entry read back; null when it is not one (storage is anyone's to edit). */
function restored(value: unknown): PendingMessage | null {
  if (!value || typeof value !== 'object') return null;
  const m = value as Record<string, unknown>;
  const valid =
    typeof m.clientMsgId === 'string' && m.clientMsgId.length > 0 && m.clientMsgId.length <= 64 &&
    typeof m.content === 'string' && m.content.length <= LIMITS.message &&
    typeof m.createdAt === 'string';
  if (!valid) return null;
  const replyTo = decodeReplyQuote(m.replyTo);
  const attachment = decodeAttachment(m.attachment);
  // A quote or attachment that no longer reads as one would send a different message: drop it.
  if ((m.replyTo !== undefined && !replyTo) || (m.attachment !== undefined && !attachment)) return null;
  // Photos sent at once (issue 27): every one must still read as one.
  const attachments = Array.isArray(m.attachments) ? m.attachments.map(decodeAttachment) : undefined;
  if (m.attachments !== undefined && (!attachments || attachments.length > LIMITS.photosPerMessage || attachments.some((a) => !a))) return null;
  // Whatever was unsent before the reload counts as failed until it goes out again.
  return { ...kept({ clientMsgId: m.clientMsgId as string, content: m.content as string, createdAt: m.createdAt as string, replyTo, attachment, attachments: attachments as Attachment[] | undefined }), failed: true };
}

export function createUnsentStore(storage: Storage): UnsentStore {
  return {
    read(userId, chatRoomId) {
      try {
        const parsed: unknown = JSON.parse(storage.getItem(unsentKey(userId, chatRoomId)) ?? '[]');
        if (!Array.isArray(parsed)) return [];
        return parsed.map(restored).filter((m): m is PendingMessage => m !== null);
      } catch {
        return [];
      }
    },
    write(userId, chatRoomId, messages) {
      const key = unsentKey(userId, chatRoomId);
      try {
        if (messages.length === 0) storage.removeItem(key);
        else storage.setItem(key, JSON.stringify(messages.slice(-MAX_UNSENT_PER_ROOM).map(kept)));
      } catch {
        // Storage full or disabled: the message stays on screen for this visit.
      }
    },
  };
}

/** For tests and for browsers without storage. */
export function createMemoryUnsentStore(): UnsentStore & { rooms: Map<string, PendingMessage[]> } {
  const rooms = new Map<string, PendingMessage[]>();
  return {
    rooms,
    read: (userId, chatRoomId) => (rooms.get(unsentKey(userId, chatRoomId)) ?? []).map((m) => ({ ...m, failed: true })),
    write: (userId, chatRoomId, messages) => {
      if (messages.length === 0) rooms.delete(unsentKey(userId, chatRoomId));
      else rooms.set(unsentKey(userId, chatRoomId), messages.slice(-MAX_UNSENT_PER_ROOM).map(kept));
    },
  };
}
