// The signed-in user's id in local storage under `uid` (docs/spec.md §3). Screens use its presence to
// decide between /login and the app; the server trusts only its session cookie.
export const UID_KEY = 'uid';

export interface UidStore {
  read(): number | null;
  store(userId: number): void;
  clear(): void;
}

export function createUidStore(storage: Storage): UidStore {
  return {
    read() {
      const raw = storage.getItem(UID_KEY);
      if (!raw) return null;
      const id = Number(raw);
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    },
    store(userId) {
      storage.setItem(UID_KEY, String(userId));
    },
    clear() {
      storage.removeItem(UID_KEY);
    },
  };
}
