// The features of the server, assembled. Each feature folder exports one factory that takes
// the shared dependencies and returns its REST routes and STOMP handlers; this is the only
// file that lists them, and where every route and handler gets its edge (edges.ts).
import type { StompFeature } from '../stomp/api';
import type { SessionAuthenticator } from '../transport/route';
import { createAccounts } from './accounts';
import { createAttachments } from './attachments';
import { createCalls } from './calls';
import { createChat } from './chat';
import { restEdge, stompEdge } from './edges';
import { createGroupCalls } from './group-calls';
import { createLinkPreviews } from './link-previews';
import { createMailer, type Mailer } from './mail/mailer';
import { createOAuth } from './oauth';
import { createBlocks, createPeople } from './people';
import { createPush } from './push';
import type { PushSender } from './push/push-service';
import type { Deps, ServerFeature } from './types';

export interface Features {
  authenticator: SessionAuthenticator;
  list: ServerFeature[];
}

function withEdges(feature: ServerFeature): ServerFeature {
  const stomp: StompFeature | undefined = feature.stomp && {
    ...feature.stomp,
    handlers: Object.fromEntries(Object.entries(feature.stomp.handlers ?? {}).map(([d, h]) => [d, stompEdge(h)])),
  };
  return { ...feature, routes: feature.routes?.map(restEdge), stomp };
}

/** The mailer and the push sender may be passed in (tests); otherwise they are made from the configuration. */
export function createFeatures(input: Omit<Deps, 'mailer'> & { mailer?: Mailer; pushSender?: PushSender }): Features {
  const deps: Deps = { ...input, mailer: input.mailer ?? createMailer(input.config, input.log) };
  const accounts = createAccounts(deps);
  const { push, feature: pushFeature } = createPush(deps, input.pushSender);
  const attachments = createAttachments(deps);
  const blocks = createBlocks(deps);
  const linkPreviews = createLinkPreviews(deps);
  const chat = createChat(deps, accounts.users, ({ id, roomId, senderId, senderName, content, mentions }, members) => {
    if (senderId === null) return;
    // After the message was stored and published (never delaying it): its link's preview, to
    // those who got the message (send-message.ts leaves out members who blocked the sender).
    const blocked = members.some((m) => m.blocks?.includes(senderId));
    linkPreviews.messagePublished({ id, roomId, senderId, content, hearing: blocked ? members.filter((m) => !m.blocks?.includes(senderId)).map((m) => m.id) : null });
    // No push for a member who blocked the sender; a member who muted the room gets none
    // either (docs/protocol.md, room settings), unless the message mentions them.
    const hearing = members.filter((m) => !m.blocks?.includes(senderId));
    const mentioned = new Set(mentions ?? []);
    push.newMessage({ id, roomId, senderId, senderName, content }, hearing.filter((m) => !m.muted && !mentioned.has(m.id)).map((m) => m.id));
    const mentionedHere = hearing.filter((m) => mentioned.has(m.id)).map((m) => m.id);
    if (mentionedHere.length > 0) push.newMessage({ id, roomId, senderId, senderName, content, mention: true }, mentionedHere);
  }, attachments.service, blocks, linkPreviews.ofMessages);
  const calls = createCalls(deps, accounts.users, {
    canRingElsewhere: (userId) => push.hasSubscription(userId),
    ringElsewhere: (callee, caller, media) => push.incomingCall(callee, caller, media),
  }, chat.callRecords, (callee, caller) => blocks.blocks(callee, caller));
  const groupCalls = createGroupCalls(deps, chat.groupCallRooms, (userId, ring) => push.groupCallStarted(userId, ring));
  // Calls before chat: their stop() lets call records be posted. Chat before push and link
  // previews: its stop() lets accepted messages be stored, which may still push or be previewed.
  const list = [accounts.feature, createOAuth(deps, accounts), createPeople(deps, accounts.users, blocks, chat.blockChanged), calls, groupCalls, chat.feature, linkPreviews.feature, attachments.feature, pushFeature];
  return { authenticator: accounts.sessions, list: list.map(withEdges) };
}
