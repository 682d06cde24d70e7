// Who is online (issue 11): a user with at least one open STOMP connection. A change (the first
// connection opens, the last one closes) is told in each of the user's rooms on the room-events
// topic. The rooms are looked up after the change, so by then the user may have changed again:
// what is told is the state at that moment, and only when it differs from what was told last,
// so the rooms never hear "online" twice or end on a stale state. The map holds only users told
// online. With several nodes, a change on this node is checked against every node
// (`connectedAnywhere`): a user whose last connection here closes while they are connected to
// another node stays online.
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
    private readonly connectedAnywhere: (userId: number) => Promise<boolean> = (userId) => Promise.resolve(this.isOnline(userId)),
  ) {
    publisher.onConnect((user, connections) => {
      if (connections === 1) this.changed(user.userId);
    });
    publisher.onDisconnect((user, remaining) => {
      if (remaining === 0) this.changed(user.userId);
    });
  }

  isOnline(userId: number): boolean {
    return this.publisher.connectionCount(userId) > 0;
  }

  private changed(userId: number): void {
    this.tell(userId).catch((err: unknown) => this.log.warn({ err, userId }, 'telling presence failed'));
  }

  private async tell(userId: number): Promise<void> {
    const roomIds = await this.rooms.roomIdsOf(userId);
    const online = this.isOnline(userId) || (await this.connectedAnywhere(userId));
    if (online === this.toldOnline.has(userId)) return;
    if (online) this.toldOnline.add(userId);
    else this.toldOnline.delete(userId);
    this.events.presence(roomIds, userId, online);
  }
}
