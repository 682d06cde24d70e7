// Where the reader was in each room (issue 26: switching to another room and back, or reloading
// the page, comes back to where they were reading, not to the bottom). Kept in the tab's session
// storage, so a reload finds it and another tab opens rooms at the bottom. A room left near its
// bottom keeps no place (the bottom is where it opens, with whatever came meanwhile).

/** The message at the top of the reader's view, and how far below the list's top edge its top was (px). */
export interface ReadingPlace {
  messageId: number;
  offset: number;
}

const key = (userId: number, chatRoomId: number) => `readingPlace:${userId}:${chatRoomId}`;
/** Where session storage is refused (private mode, full): the places live as long as the page. */
const fallback = new Map<string, string>();

function read(name: string): string | null {
  try {
    return sessionStorage.getItem(name);
  } catch {
    return fallback.get(name) ?? null;
  }
}

function write(name: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(name);
    else sessionStorage.setItem(name, value);
  } catch {
    if (value === null) fallback.delete(name);
    else fallback.set(name, value);
  }
}

export function readingPlace(userId: number, chatRoomId: number): ReadingPlace | null {
  const stored = read(key(userId, chatRoomId));
  if (stored === null) return null;
  try {
    const place = JSON.parse(stored) as Partial<ReadingPlace>;
    return Number.isSafeInteger(place.messageId) && Number.isFinite(place.offset) ? { messageId: place.messageId!, offset: place.offset! } : null;
  } catch {
    return null;
  }
}

/** null: the reader was at the bottom. */
export function keepReadingPlace(userId: number, chatRoomId: number, place: ReadingPlace | null): void {
  write(key(userId, chatRoomId), place ? JSON.stringify(place) : null);
}

/** How far below the list's top edge the element's top is (negative: scrolled past). */
export const offsetIn = (list: HTMLElement, element: Element): number => element.getBoundingClientRect().top - list.getBoundingClientRect().top;

/** The first message whose bottom is below the list's top edge: the one the reader sees first. */
export function placeIn(list: HTMLElement): ReadingPlace | null {
  const top = list.getBoundingClientRect().top;
  for (const element of list.querySelectorAll<HTMLElement>('.msg[data-message-id]')) {
    if (element.getBoundingClientRect().bottom <= top) continue;
    const messageId = Number(element.dataset.messageId);
    return Number.isSafeInteger(messageId) ? { messageId, offset: offsetIn(list, element) } : null;
  }
  return null;
}
