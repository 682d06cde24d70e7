// Destination → handler, and SUBSCRIBE authorisation. One table of /app/... handlers built
// from the features (the way Spring's @MessageMapping collects them); clients never publish
// to /topic or /queue directly.
import { parseSubscriptionDestination } from '@common/destinations';
import type { AppHandler, StompFeature, StompPrincipal } from './api';

export interface HandlerRoute { kind: 'handler'; handler: AppHandler }
export type SendRoute = HandlerRoute | { kind: 'refused'; message: string };

export interface StompRouter {
  routeSend(destination: string): SendRoute;
  authorize(user: StompPrincipal, destination: string): Promise<boolean> | boolean;
}

export function createFeatureRouter(features: StompFeature[]): StompRouter {
  const handlers = new Map<string, AppHandler>();
  for (const feature of features) {
    for (const [destination, handler] of Object.entries(feature.handlers ?? {})) {
      if (!destination.startsWith('/app/')) throw new Error(`STOMP handler outside /app/: ${destination}`);
      if (handlers.has(destination)) throw new Error(`STOMP handler defined twice: ${destination}`);
      handlers.set(destination, handler);
    }
  }
  const hooks = features.flatMap((f) => (f.authorize ? [f.authorize] : []));

  return {
    routeSend(destination) {
      const handler = handlers.get(destination);
      if (handler) return { kind: 'handler', handler };
      if (destination.startsWith('/app/')) return { kind: 'refused', message: `no handler for ${destination}` };
      return { kind: 'refused', message: `clients may only SEND to /app/... destinations, not ${destination}` };
    },
    async authorize(user, destination) {
      const parsed = parseSubscriptionDestination(destination);
      // A user's own queues and refresh topic: only that user, whatever a feature says.
      if (parsed.kind === 'callQueue' || parsed.kind === 'toggleRefresh') return parsed.userId === user.userId;
      for (const hook of hooks) {
        const answer = await hook(user, destination);
        if (answer !== undefined) return answer;
      }
      return false;
    },
  };
}
