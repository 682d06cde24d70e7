// Signals between the nodes of a cluster, for features: a change one node made that every other
// node must act on (a room's members changed: drop the cached list). A signal is not sent back
// to the node that broadcast it; that node acts on its own change directly. Lossy like the bus:
// what a signal invalidates must also expire by itself.
export interface Signals {
  broadcast(name: string, data: string): void;
  onSignal(name: string, handler: (data: string) => void): void;
  /**
   * Called when signals may have been lost (the bus was down and is back), before the node
   * re-checks its sessions and subscriptions: drop whatever a lost signal would have invalidated.
   */
  onLost(handler: () => void): void;
}
