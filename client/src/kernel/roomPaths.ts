// Addresses of one room's screens (docs/spec.md §2): /chat-room?cri={id} and /add-user-to-chat?cri={id}.
import { paths } from './paths';

export function chatRoomPath(chatRoomId: number): string {
  return `${paths.chatRoom}?cri=${chatRoomId}`;
}

/** The room opened around one of its messages (a search result): /chat-room?cri={id}&seq={seq}. */
export function chatRoomPathAt(chatRoomId: number, seq: number): string {
  return `${chatRoomPath(chatRoomId)}&seq=${seq}`;
}

export function invitePath(chatRoomId: number): string {
  return `${paths.invite}?cri=${chatRoomId}`;
}

/** The room id from ?cri=, or null when it is missing or not a positive integer. */
export function roomIdFrom(params: URLSearchParams): number | null {
  const raw = params.get('cri');
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/** The seq from &seq= (a search result to open the room around), or null. */
export function seqFrom(params: URLSearchParams): number | null {
  const raw = params.get('seq');
  if (!raw || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const seq = Number(raw);
  return Number.isSafeInteger(seq) ? seq : null;
}
