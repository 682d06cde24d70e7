// Which users have a room open and in focus, per STOMP connection, in memory: user-active adds
// the room to the connection's set, user-inactive removes it, a closed connection drops its
// set. A user is active in a room while any of their connections is.
export class PresenceTracker {
  private readonly byConnection = new Map<string, { userId: number; rooms: Set<number> }>();
  /** roomId → userId → how many of the user's connections are active there. */
  private readonly byRoom = new Map<number, Map<number, number>>();

  activate(connectionId: string, userId: number, roomId: number): void {
    let conn = this.byConnection.get(connectionId);
    if (!conn) {
      conn = { userId, rooms: new Set() };
      this.byConnection.set(connectionId, conn);
    }
    if (conn.rooms.has(roomId)) return;
    conn.rooms.add(roomId);
    const users = this.byRoom.get(roomId) ?? new Map<number, number>();
    users.set(userId, (users.get(userId) ?? 0) + 1);
    this.byRoom.set(roomId, users);
  }

  deactivate(connectionId: string, roomId: number): void {
    const conn = this.byConnection.get(connectionId);
    if (!conn || !conn.rooms.delete(roomId)) return;
    this.release(conn.userId, roomId);
    if (conn.rooms.size === 0) this.byConnection.delete(connectionId);
  }

  /** Forgets a closed connection. */
  drop(connectionId: string): void {
    const conn = this.byConnection.get(connectionId);
    if (!conn) return;
    this.byConnection.delete(connectionId);
    for (const roomId of conn.rooms) this.release(conn.userId, roomId);
  }

  /** Forgets a user's presence in a room on every connection (the user left it). */
  removeUser(userId: number, roomId: number): void {
    for (const [connectionId, conn] of this.byConnection) {
      if (conn.userId === userId && conn.rooms.has(roomId)) this.deactivate(connectionId, roomId);
    }
  }

  activeUsers(roomId: number): number[] {
    return [...(this.byRoom.get(roomId)?.keys() ?? [])];
  }

  private release(userId: number, roomId: number): void {
    const users = this.byRoom.get(roomId);
    if (!users) return;
    const n = (users.get(userId) ?? 0) - 1;
    if (n > 0) users.set(userId, n);
    else users.delete(userId);
    if (users.size === 0) this.byRoom.delete(roomId);
  }
}
