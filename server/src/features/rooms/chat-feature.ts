// Chat, assembled: rooms, messages and presence share the repositories, the members cache and
// the per-room message queue. One factory, one feature for features/index.ts.
import { parseSubscriptionDestination } from '../../../../common/destinations';
import type { StompPrincipal } from '../../stomp/api';
import type { Deps, ServerFeature } from '../index';
import { MembersCache } from '../messages/members-cache';
import { MessageWriter } from '../messages/message-writer';
import { messagesHandlers } from '../messages/messages-handlers';
import { MessagesRepository } from '../messages/messages-repository';
import { messagesRoutes } from '../messages/messages-routes';
import { MessagesService } from '../messages/messages-service';
import { presenceHandlers } from '../presence/presence-handlers';
import { PresenceService } from '../presence/presence-service';
import { PresenceTracker } from '../presence/presence-tracker';
import { NotificationService } from './notification-service';
import { RoomsRepository } from './rooms-repository';
import { roomsRoutes } from './rooms-routes';
import { RoomsService } from './rooms-service';

export function createChat(deps: Deps): ServerFeature {
  const { db, clock, publisher, mailer, config } = deps;
  const log = deps.log.child({ feature: 'chat' });
  const roomsRepo = new RoomsRepository(db);
  const members = new MembersCache((roomId) => roomsRepo.members(roomId), clock);
  const presence = new PresenceService(new PresenceTracker(), roomsRepo, clock, log);
  const messagesRepo = new MessagesRepository(db);
  const writer = new MessageWriter(messagesRepo, log);
  const messages = new MessagesService({ messages: messagesRepo, writer, rooms: roomsRepo, members, presence, publisher, clock });
  const rooms = new RoomsService({ rooms: roomsRepo, messages, members, presence, publisher, clock });
  const notifications = new NotificationService({ rooms: roomsRepo, mailer, clock, publicUrl: config.publicUrl });

  publisher.onDisconnect((user) => presence.disconnected(user.connectionId));

  return {
    routes: [...roomsRoutes(rooms, notifications), ...messagesRoutes(messages)],
    stomp: {
      handlers: { ...messagesHandlers(messages), ...presenceHandlers(presence) },
      // Only members may subscribe to a room's topic; other destinations are not chat's to decide.
      authorize: (user: StompPrincipal, destination: string) => {
        const parsed = parseSubscriptionDestination(destination);
        if (parsed.kind !== 'privateChat') return undefined;
        return roomsRepo.isMember(parsed.chatRoomId, user.userId);
      },
    },
    // Messages already accepted are stored before the database closes.
    stop: () => writer.idle(),
  };
}
