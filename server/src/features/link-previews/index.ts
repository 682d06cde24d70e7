// Link previews assembled (issue 27; docs/architecture.md, link previews): the service told of
// each published user message, the image route, and the lookup history uses to carry a
// message's preview. LINK_PREVIEWS=off: no previews are fetched or announced, and the route
// and lookup stay (previews fetched before are still shown).
import { topics } from '@common/destinations';
import type { LinkPreview } from '@common/api';
import { Outbound } from '../../outbound';
import type { Deps, ServerFeature } from '../types';
import { CACHE_MS, LinkPreviews, type PreviewedMessage } from './link-previews-service';
import { linkPreviewsRoutes } from './link-previews-routes';
import { PreviewsRepository } from './previews-repository';

export interface LinkPreviewsFeature {
  feature: ServerFeature;
  /** A user message was stored and published to `hearing` (null: the room's topic). */
  messagePublished(message: PreviewedMessage): void;
  /** Every preview under way has finished. */
  idle(): Promise<void>;
  /** The previews of those messages that have one (history). */
  ofMessages(messageIds: readonly number[]): Promise<Map<number, LinkPreview>>;
}

/** How often the cache drops the rows no message shows, and how many at a time at most. */
const SWEEP = { everyMs: 3600_000, batch: 1000 } as const;

export function createLinkPreviews(deps: Deps): LinkPreviewsFeature {
  const { config, db, clock, publisher } = deps;
  const repo = new PreviewsRepository(db);
  const outbound = new Outbound({ allowHosts: config.outboundAllowHosts });
  const previews = new LinkPreviews({
    repo, outbound, clock, log: deps.log.child({ feature: 'link-previews' }),
    // Beside the room's other events (docs/protocol.md, /topic/chat-room-events/{id}); to the
    // members who got the message when the room's topic did not carry it (blocks).
    announce: ({ id, roomId, hearing }, linkPreview) => {
      const event = { type: 'linkPreview' as const, chatRoomId: roomId, messageId: id, linkPreview };
      const topic = topics.chatRoomEvents(roomId);
      if (hearing === null) publisher.publish(topic, event);
      else for (const userId of hearing) publisher.publishToUser(userId, topic, event);
    },
  });
  // Rows past their cache time that no message shows would be fetched again at their next use:
  // kept, they would only grow the table (every link ever pasted, its image included).
  const sweep = setInterval(() => {
    repo.removeUnused(clock() - CACHE_MS.ok, SWEEP.batch).catch((err: unknown) => deps.log.warn({ err }, 'link preview sweep failed'));
  }, SWEEP.everyMs);
  sweep.unref();
  return {
    feature: {
      routes: linkPreviewsRoutes(repo),
      stop: () => {
        clearInterval(sweep);
        return previews.stop(() => outbound.close());
      },
    },
    idle: () => previews.idle(),
    messagePublished: (message) => {
      if (config.linkPreviews) previews.messagePublished(message);
    },
    ofMessages: (ids) => repo.ofMessages(ids),
  };
}
