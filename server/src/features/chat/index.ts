// Chat, assembled: rooms, members, messages and read markers share the repositories, the
// members cache and the message writer. One factory, one feature for features/index.ts.
import { RefreshSignals } from './refresh-signals';
import { parseSubscriptionDestination } from '@common/destinations';
import type { StompPrincipal } from '../../stomp/api';
import type { UsersRepository } from '../accounts/users-repository';
import type { Deps, ServerFeature } from '../types';
import { callRecordRooms, type CallRecordRooms } from './call-record';
import { groupCallRooms, type GroupCallRooms } from './group-call-rooms';
import { MediaRepository } from './media-repository';
import { mediaRoutes } from './media-routes';
import { NO_BLOCKS, type AttachmentPort, type BlockLookup, type ChatDeps, type LinkPreviewLookup } from './chat-deps';
import { chatHandlers } from './chat-handlers';
import { chatRoutes } from './chat-routes';
import { MembersCache } from './members-cache';
import { searchEngineFor } from './message-search-repository';
import { SearchesInFlight } from './message-search';
import { WaitingMessages } from './message-index-repository';
import { MessageIndexer } from './message-indexer';
import { MessageWriter } from './message-writer';
import { MessagesRepository } from './messages-repository';
import { NotificationMail } from './notification-mail';
import { OnlineUsers } from './online-users';
import { PresenceTracker } from './presence-tracker';
import { ReactionsRepository } from './reactions-repository';
import { ReadMarkers } from './read-markers';
import { RoomEvents } from './room-events';
import { RoomsRepository, type ChatUser } from './rooms-repository';
import { MessageSender, type MessageSenderDeps } from './send-message';
import { Typing } from './typing';
import { HiddenMessagesRepository } from './hidden-messages-repository';

/** Who else hears of a published user message (Web Push), from features/index.ts. */
export type MessagePublished = MessageSenderDeps['published'];

/** Chat's parts wired together: the rules' dependencies, the notification mail and the writer. */
export interface ChatParts {
  chat: ChatDeps;
  notifications: NotificationMail;
  writer: MessageWriter;
  indexer: MessageIndexer;
  roomEvents: RoomEvents;
  refresh: RefreshSignals;
  /** Who is told that a member left a room (group calls). */
  leftListeners: Array<(roomId: number, userId: number) => void>;
}

/** The cluster signal that a room's members changed (its data: the room id). */
const MEMBERS_CHANGED = 'chat.members';

export type { BlockLookup };

/** A room's members for the members cache, each with whom among them they blocked. */
async function membersWithBlocks(rooms: RoomsRepository, blocks: BlockLookup, roomId: number): Promise<ChatUser[]> {
  const members: ChatUser[] = await rooms.members(roomId);
  const pairs = await blocks.among(members.map((m) => m.id));
  for (const { userId, blockedId } of pairs) {
    const member = members.find((m) => m.id === userId);
    if (member) (member.blocks ??= []).push(blockedId);
  }
  return members;
}

export function assembleChat(
  deps: Deps, users: UsersRepository, published?: MessagePublished, attachments?: AttachmentPort, blocks: BlockLookup = NO_BLOCKS, linkPreviews?: LinkPreviewLookup,
): ChatParts {
  const { db, clock, publisher, mailer, config } = deps;
  const log = deps.log.child({ feature: 'chat' });
  // A room deleted (its last member left) takes its attachments and their bytes along.
  const rooms = new RoomsRepository(db, attachments ? [(trx, roomId) => attachments.removeRoom(trx, roomId)] : []);
  const messages = new MessagesRepository(db, deps.fewTrips);
  const { signals } = deps.cluster;
  const members = new MembersCache((roomId) => membersWithBlocks(rooms, blocks, roomId), clock, undefined, (roomId) => signals.broadcast(MEMBERS_CHANGED, String(roomId)));
  signals.onSignal(MEMBERS_CHANGED, (roomId) => members.invalidateHere(Number(roomId)));
  const roomEvents = new RoomEvents(publisher);
  const readMarkers = new ReadMarkers(new PresenceTracker(), rooms, members, roomEvents, clock, log);
  const indexer = new MessageIndexer(new WaitingMessages(db), clock, log, (count) => deps.metrics.messagesIndexed(count));
  const writer = new MessageWriter(messages, log, (committed, seconds) => {
    deps.metrics.messagesStored(committed.length, seconds);
    indexer.add(committed.flatMap((c) => (c.message.senderId === null ? [] : [c.stored.id])));
  });
  const refresh = new RefreshSignals(publisher);
  const sender = new MessageSender({ messages, writer, members, readMarkers, publisher, refresh, clock, published, attachments });
  const online = new OnlineUsers(publisher, rooms, roomEvents, log, (userIds) => deps.cluster.presence.onlineAmong(userIds), { blocks, members });
  const typing = new Typing(members, users, roomEvents, clock, deps.cluster.throttle);
  const reactions = new ReactionsRepository(db, messages);
  const chat: ChatDeps = { rooms, messages, users, members, sender, readMarkers, online, typing, publisher, clock, reactions, hidden: new HiddenMessagesRepository(db), roomEvents, search: searchEngineFor(db), searchesInFlight: new SearchesInFlight(), attachments, blocks, linkPreviews };
  const leftListeners: Array<(roomId: number, userId: number) => void> = [];
  chat.memberLeft = (roomId, userId) => {
    for (const listener of leftListeners) listener(roomId, userId);
  };
  const notifications = new NotificationMail({ rooms, mailer, clock, publicUrl: config.publicUrl, blocks });
  publisher.onDisconnect((user) => readMarkers.connectionClosed(user.connectionId));
  return { chat, notifications, writer, indexer, roomEvents, refresh, leftListeners };
}

/** Chat's feature, and where calls post their records (the two people's room). */
export function createChat(
  deps: Deps, users: UsersRepository, published?: MessagePublished, attachments?: AttachmentPort, blocks?: BlockLookup, linkPreviews?: LinkPreviewLookup,
): { feature: ServerFeature; callRecords: CallRecordRooms; groupCallRooms: GroupCallRooms; blockChanged: (userId: number, otherId: number) => Promise<void> } {
  const { chat, notifications, writer, indexer, roomEvents, refresh, leftListeners } = assembleChat(deps, users, published, attachments, blocks, linkPreviews);
  const feature: ServerFeature = {
    routes: [...chatRoutes(chat, notifications), ...mediaRoutes({ ...chat, media: new MediaRepository(deps.db) })],
    stomp: {
      handlers: chatHandlers(chat),
      // Only members may subscribe to a room's topics; other destinations are not chat's to decide.
      authorize: (user: StompPrincipal, destination: string) => {
        const parsed = parseSubscriptionDestination(destination);
        if (parsed.kind !== 'privateChat' && parsed.kind !== 'chatRoomEvents') return undefined;
        return chat.rooms.isMember(parsed.chatRoomId, user.userId);
      },
    },
    // Messages already accepted are stored before the database closes.
    stop: async () => {
      await writer.idle();
      // What this node stored is indexed before the database closes; what it cannot index in
      // time waits for the sweep of the next start (or of another node).
      indexer.stop();
      await indexer.idle();
      await chat.readMarkers.idle();
      roomEvents.stop();
      refresh.stop();
    },
  };
  // A block between two people changes what their shared rooms' fan-out keeps from whom; once
  // unblocked, a 1:1 the other opened meanwhile shows in the user's chat list again.
  const blockChanged = async (userId: number, otherId: number) => {
    const shared = await chat.rooms.sharedRooms(userId, otherId);
    for (const roomId of shared) chat.members.invalidate(roomId);
    if (!(await chat.blocks.blocks(userId, otherId))) for (const roomId of shared) await chat.rooms.setHidden(roomId, userId, false);
  };
  return { feature, callRecords: callRecordRooms(chat), groupCallRooms: groupCallRooms(chat, leftListeners, refresh), blockChanged };
}
