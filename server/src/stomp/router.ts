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

/** A router the features' tables are added to; the broker holds it before the features exist. */
export interface FeatureRouter extends StompRouter {
  add(features: StompFeature[]): void;
}

export function createFeatureRouter(features: StompFeature[] = []): FeatureRouter {
  const handlers = new Map<string, AppHandler>();
  const hooks: Array<NonNullable<StompFeature['authorize']>> = [];
  const add = (more: StompFeature[]) => {
    for (const feature of more) {
      for (const [destination, handler] of Object.entries(feature.handlers ?? {})) {
        if (!destination.startsWith('/app/')) throw new Error(`STOMP handler outside /app/: ${destination}`);
        if (handlers.has(destination)) throw new Error(`STOMP handler defined twice: ${destination}`);
        handlers.set(destination, handler);
      }
      if (feature.authorize) hooks.push(feature.authorize);
    }
  };
  add(features);

  return {
    add,
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
