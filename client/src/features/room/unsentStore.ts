// Sends the server has not confirmed yet, kept in local storage per user and room so that a
// failed message survives a reload of the page until it is sent or deleted.
import { LIMITS } from '../../../../common/rules';
import type { PendingMessage } from './messages';

export interface UnsentStore {
  read(userId: number, chatRoomId: number): PendingMessage[];
  /** Replaces the room's list; an empty list removes the entry. */
  write(userId: number, chatRoomId: number, messages: readonly PendingMessage[]): void;
}

/** A room keeps at most this many unsent messages (the oldest go first): storage is small. */
export const MAX_UNSENT_PER_ROOM = 50;

export function unsentKey(userId: number, chatRoomId: number): string {
  return `unsent:${userId}:${chatRoomId}`;
}

function isPendingMessage(value: unknown): value is PendingMessage {
  if (!value || typeof value !== 'object') return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m.clientMsgId === 'string' && m.clientMsgId.length > 0 && m.clientMsgId.length <= 64 &&
    typeof m.content === 'string' && m.content.length <= LIMITS.message &&
    typeof m.createdAt === 'string'
  );
}

export function createUnsentStore(storage: Storage): UnsentStore {
  return {
    read(userId, chatRoomId) {
      try {
        const parsed: unknown = JSON.parse(storage.getItem(unsentKey(userId, chatRoomId)) ?? '[]');
        if (!Array.isArray(parsed)) return [];
        // Whatever was unsent before the reload counts as failed until it goes out again.
        return parsed.filter(isPendingMessage).map(({ clientMsgId, content, createdAt }) => ({ clientMsgId, content, createdAt, failed: true }));
      } catch {
        return [];
      }
    },
    write(userId, chatRoomId, messages) {
      const key = unsentKey(userId, chatRoomId);
      try {
        if (messages.length === 0) storage.removeItem(key);
        else storage.setItem(key, JSON.stringify(messages.slice(-MAX_UNSENT_PER_ROOM).map(({ clientMsgId, content, createdAt }) => ({ clientMsgId, content, createdAt }))));
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
      else rooms.set(unsentKey(userId, chatRoomId), messages.map(({ clientMsgId, content, createdAt }) => ({ clientMsgId, content, createdAt })));
    },
  };
}
