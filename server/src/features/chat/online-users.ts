// Who is online: a user with at least one open STOMP connection. A change (the first
// connection opens, the last one closes) is told in each of the user's rooms on the room-events
// topic. The rooms are looked up after the change, so by then the user may have changed again:
// what is told is the state at that moment, and only when it differs from what was told last,
// so the rooms never hear "online" twice or end on a stale state. The map holds only users told
// online. With several nodes, a change on this node is checked against every node
// (`connectedElsewhere`): a user whose last connection here closes while they are connected to
// another node stays online. So is what history and user search answer (`onlineAmong`): a
// member connected only to another node is online there too.
import type { Logger } from '../../log';
import type { Publisher } from '../../stomp/api';
import type { RoomEvents } from './room-events';
import type { RoomsRepository } from './rooms-repository';

export class OnlineUsers {
  private readonly toldOnline = new Set<number>();

  constructor(
    private readonly publisher: Pick<Publisher, 'connectionCount' | 'onConnect' | 'onDisconnect'>,
    private readonly rooms: Pick<RoomsRepository, 'roomIdsOf'>,
    private readonly events: Pick<RoomEvents, 'presence'>,
    private readonly log: Logger,
    /** Which of the users (none connected here) are connected to another node: cluster/presence.ts. */
    private readonly connectedElsewhere: (userIds: readonly number[]) => Promise<Set<number>> = () => Promise.resolve(new Set()),
  ) {
    publisher.onConnect((user, connections) => {
      if (connections === 1) this.changed(user.userId);
    });
    publisher.onDisconnect((user, remaining) => {
      if (remaining === 0) this.changed(user.userId);
    });
  }

  /** Which of the users have a connection on any node: those here without asking, the rest in one lookup. */
  async onlineAmong(userIds: readonly number[]): Promise<Set<number>> {
    const online = new Set(userIds.filter((id) => this.isOnlineHere(id)));
    const rest = userIds.filter((id) => !online.has(id));
    if (rest.length === 0) return online;
    for (const id of await this.connectedElsewhere(rest)) online.add(id);
    return online;
  }

  private isOnlineHere(userId: number): boolean {
    return this.publisher.connectionCount(userId) > 0;
  }

  private changed(userId: number): void {
    this.tell(userId).catch((err: unknown) => this.log.warn({ err, userId }, 'telling presence failed'));
  }

  private async tell(userId: number): Promise<void> {
    const roomIds = await this.rooms.roomIdsOf(userId);
    const online = this.isOnlineHere(userId) || (await this.connectedElsewhere([userId])).has(userId);
    if (online === this.toldOnline.has(userId)) return;
    if (online) this.toldOnline.add(userId);
    else this.toldOnline.delete(userId);
    this.events.presence(roomIds, userId, online);
  }
}
