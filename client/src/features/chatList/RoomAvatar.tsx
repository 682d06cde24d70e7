// A room's picture in the chat list: the other person's photo (or initial) in a two-person
// room (its name is theirs; the row's `peer` says who), a group mark in a group.
import type { ChatPeer } from '@common/api';
import { ko } from '../../i18n/ko';
import { Avatar } from '../../components/Avatar';

export function RoomAvatar({ name, memberCount, peer }: { name: string; memberCount: number | undefined; peer?: ChatPeer }) {
  if (memberCount === undefined || memberCount <= 2) return <Avatar name={name} photo={peer} />;
  return (
    <span className="avatar avatar--group" role="img" aria-label={ko.chatList.group(memberCount)} data-testid="group-avatar">
      <svg width="22" height="22" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
        <circle cx="8" cy="8" r="3.5" />
        <circle cx="16.5" cy="9" r="3" />
        <path d="M1.5 20c0-3.6 2.9-6.5 6.5-6.5s6.5 2.9 6.5 6.5z" />
        <path d="M13.8 20c0-1.9-.6-3.7-1.7-5.1.9-.6 2-.9 3.1-.9 3.5 0 6.3 2.7 6.3 6z" />
      </svg>
    </span>
  );
}
