// The composer's draft per user and room (issue 26), kept in local storage: a room switch or a
// reload finds what was being written. Only text is kept (an upload is a pending send already).
type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const key = (userId: number, chatRoomId: number) => `draft:${userId}:${chatRoomId}`;

export function readDraft(storage: Store, userId: number, chatRoomId: number): string {
  try {
    return storage.getItem(key(userId, chatRoomId)) ?? '';
  } catch {
    return ''; // storage refused (private mode): no draft
  }
}

/** A blank draft is removed rather than kept. */
export function writeDraft(storage: Store, userId: number, chatRoomId: number, text: string): void {
  try {
    if (text.trim()) storage.setItem(key(userId, chatRoomId), text);
    else storage.removeItem(key(userId, chatRoomId));
  } catch {
    // Full or refused storage: the draft lives as long as the screen.
  }
}
