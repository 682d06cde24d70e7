// What chat's rules are given: its repositories, the accounts feature's users, the members
// cache, the message sender and read markers, the publisher and the clock. Assembled once in
// index.ts.
import type { Publisher } from '../../stomp/api';
import type { UsersRepository } from '../accounts/users-repository';
import type { AttachmentPort } from '../attachments/attachments-service';
import type { Clock } from '../types';
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

export type { AttachmentPort };

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
  roomEvents: RoomEvents;
  search: MessageSearchEngine;
  searchesInFlight: SearchesInFlight;
  /** Claims an upload for a message, removes it with the message; absent: no attachments. */
  attachments?: AttachmentPort;
  publisher: Publisher;
  clock: Clock;
}
