// What chat's rules are given: its repositories, the accounts feature's users, the members
// cache, the message sender and read markers, the publisher and the clock. Assembled once in
// index.ts.
import type { ChatRowGroupCall } from '@common/api';
import type { Publisher } from '../../stomp/api';
import type { UsersRepository } from '../accounts/users-repository';
import type { AttachmentPort } from '../attachments/attachments-service';
import type { Clock } from '../types';
import type { LinkPreview } from '@common/api';
import type { MembersCache } from './members-cache';
import type { MessageSearchEngine } from './message-search-repository';
import type { SearchesInFlight } from './message-search';
import type { MessagesRepository } from './messages-repository';
import type { OnlineUsers } from './online-users';
import type { ReactionsRepository } from './reactions-repository';
import type { ReadMarkers } from './read-markers';
import type { RoomEvents } from './room-events';
import type { RoomsRepository } from './rooms-repository';
import type { MessageSender } from './send-message';
import type { Typing } from './typing';
import type { HiddenMessagesRepository } from './hidden-messages-repository';

export type { AttachmentPort };

import type { BlockLookup } from './block-lookup';

/** The previews of those messages that have one (features/link-previews). */
export type LinkPreviewLookup = (messageIds: readonly number[]) => Promise<Map<number, LinkPreview>>;
export { NO_BLOCKS, type BlockLookup } from './block-lookup';

export interface ChatDeps {
  rooms: RoomsRepository;
  messages: MessagesRepository;
  users: UsersRepository;
  members: MembersCache;
  sender: MessageSender;
  readMarkers: ReadMarkers;
  online: Pick<OnlineUsers, 'onlineAmong'>;
  typing: Typing;
  reactions: ReactionsRepository;
  /** Ours: each user's delete-for-me. */
  hidden: HiddenMessagesRepository;
  roomEvents: RoomEvents;
  search: MessageSearchEngine;
  searchesInFlight: SearchesInFlight;
  /** Claims an upload for a message, removes it with the message; absent: no attachments. */
  attachments?: AttachmentPort;
  blocks: BlockLookup;
  /** The link previews of messages that have one (history); absent: none. */
  linkPreviews?: LinkPreviewLookup;
  publisher: Publisher;
  clock: Clock;
  /** Told after a member left a room (a group call in it lets them go). */
  memberLeft?: (roomId: number, userId: number) => void;
  /** The group calls going on, by room (chat-list rows); absent until group calls are wired. */
  groupCalls?: () => Promise<Map<number, ChatRowGroupCall>>;
}
