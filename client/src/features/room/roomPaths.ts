// Addresses of one room's screens (SPEC.md §2): /chat-room?cri={id} and /add-user-to-chat?cri={id}.
import { paths } from '../../app/paths';

export function chatRoomPath(chatRoomId: number): string {
  return `${paths.chatRoom}?cri=${chatRoomId}`;
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
