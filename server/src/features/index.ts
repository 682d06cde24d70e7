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
import { createMailer, type Mailer } from './mail/mailer';
import { createOAuth } from './oauth';
import { createPeople } from './people';
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
  const chat = createChat(deps, accounts.users, ({ id, roomId, senderId, senderName, content }, members) => {
    // A member who muted the room gets no push for its messages (docs/protocol.md, room settings).
    if (senderId !== null) push.newMessage({ id, roomId, senderId, senderName, content }, members.filter((m) => !m.muted).map((m) => m.id));
  }, attachments.service);
  const calls = createCalls(deps, accounts.users, {
    canRingElsewhere: (userId) => push.hasSubscription(userId),
    ringElsewhere: (callee, caller) => push.incomingCall(callee, caller),
  }, chat.callRecords);
  // Calls before chat: their stop() lets call records be posted. Chat before push: its stop()
  // lets accepted messages be stored, which may still push.
  const list = [accounts.feature, createOAuth(deps, accounts), createPeople(deps, accounts.users), calls, chat.feature, attachments.feature, pushFeature];
  return { authenticator: accounts.sessions, list: list.map(withEdges) };
}
