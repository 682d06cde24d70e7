// GET /healthz: what a load balancer asks to keep a node in rotation.
import type { BusState } from '../cluster/bus';
import type { Route } from '../transport/route';

/** A database that has not answered by then counts as down: a probe must not hang with it. */
export const HEALTH_TIMEOUT_MS = 2000;

export interface HealthSources {
  /** Resolves once the database answered a trivial query. */
  pingDatabase(): Promise<void>;
  /** The cluster bus as this node sees it. */
  bus: { readonly state: BusState; readonly nodeId: string };
}

/**
 * The database answers or the node is unhealthy (503). The cluster bus down only degrades it
 * (200, `"status":"degraded"`): the node still serves its own clients, so it stays in rotation.
 */
export function healthRoute({ pingDatabase, bus }: HealthSources): Route {
  return {
    method: 'GET',
    path: '/healthz',
    public: true,
    async handle() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database did not answer')), HEALTH_TIMEOUT_MS);
      });
      try {
        await Promise.race([pingDatabase(), timedOut]);
        if (bus.state === 'local') return { json: { status: 'ok' } };
        return { json: { status: bus.state === 'up' ? 'ok' : 'degraded', bus: bus.state, node: bus.nodeId } };
      } catch {
        return { status: 503, json: { status: 'unavailable', message: 'database unreachable' } };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
