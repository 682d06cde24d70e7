// Who is online: a user with at least one open STOMP connection. A change (the first
// connection opens, the last one closes) is told in each of the user's rooms on the room-events
// topic. The rooms are looked up after the change, so by then the user may have changed again:
// what is told is the state at that moment, and only when it differs from what was told last,
// so the rooms never hear "online" twice or end on a stale state. The map holds only users told
// online. With several nodes, a change on this node is checked against every node
// (`connectedElsewhere`): a user whose last connection here closes while they are connected to
// another node stays online. So is what history and user search answer (`onlineAmong`): a
// member connected only to another node is online there too. Ours: a room where a member blocked
// the user is told member by member, leaving that member out (room-events' publishFrom): the one
// who blocked someone does not follow whether they come and go.
import type { Logger } from '../../log';
import type { BlockLookup } from './block-lookup';
import type { MembersCache } from './members-cache';
import type { Publisher } from '../../stomp/api';
import type { RoomEvents } from './room-events';
import type { ChatUser, RoomsRepository } from './rooms-repository';

export class OnlineUsers {
  private readonly toldOnline = new Set<number>();

  constructor(
    private readonly publisher: Pick<Publisher, 'connectionCount' | 'onConnect' | 'onDisconnect'>,
    private readonly rooms: Pick<RoomsRepository, 'roomIdsOf'>,
    private readonly events: Pick<RoomEvents, 'presence'>,
    private readonly log: Logger,
    /** Which of the users (none connected here) are connected to another node: cluster/presence.ts. */
    private readonly connectedElsewhere: (userIds: readonly number[]) => Promise<Set<number>> = () => Promise.resolve(new Set()),
    private readonly blocking?: { blocks: Pick<BlockLookup, 'blockersOf'>; members: Pick<MembersCache, 'get'> },
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
    const members = await this.membersIfBlocked(userId, roomIds);
    const online = this.isOnlineHere(userId) || (await this.connectedElsewhere([userId])).has(userId);
    if (online === this.toldOnline.has(userId)) return;
    if (online) this.toldOnline.add(userId);
    else this.toldOnline.delete(userId);
    roomIds.forEach((roomId, i) => this.events.presence(roomId, userId, online, members?.[i]));
  }

  /**
   * The members of each room, for a user someone blocked (only they cost more: one lookup, then
   * the cached members); undefined otherwise. Read before the state is compared, so nothing is
   * awaited between deciding what to tell and telling it.
   */
  private async membersIfBlocked(userId: number, roomIds: readonly number[]): Promise<Array<readonly ChatUser[]> | undefined> {
    if (!this.blocking || (await this.blocking.blocks.blockersOf(userId)).size === 0) return undefined;
    const { members } = this.blocking;
    return Promise.all(roomIds.map((roomId) => members.get(roomId)));
  }
}
