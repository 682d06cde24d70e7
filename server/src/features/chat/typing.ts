// "{name}님이 입력 중…": a member typing in a room is told to the room on the
// room-events topic, at most once per member and room every 2 s, never stored, and not at all
// when the user turned it off in the settings. A non-member is refused. The interval holds
// across nodes (a user's tabs may be on different nodes): this node's memory decides first,
// then the cluster's throttle.
import { LIMITS } from '@common/rules';
import type { Throttle } from '../../cluster/throttle';
import type { UsersRepository } from '../accounts/users-repository';
import type { Clock } from '../types';
import type { MembersCache } from './members-cache';
import { memberAmong } from './membership';
import type { RoomEvents } from './room-events';

/** Stale throttle entries are swept once this many are held (the bar rises with the live ones). */
const SWEEP_AT = 1000;

export class Typing {
  /** "roomId:userId" → when the member's last typing event went out. */
  private readonly lastTold = new Map<string, number>();
  private sweepAt = SWEEP_AT;

  constructor(
    private readonly members: Pick<MembersCache, 'get'>,
    private readonly users: Pick<UsersRepository, 'preferences'>,
    private readonly events: Pick<RoomEvents, 'typing'>,
    private readonly clock: Clock,
    private readonly throttle: Throttle = { allow: () => Promise.resolve(true) },
  ) {}

  async typing(userId: number, roomId: number): Promise<void> {
    const members = await this.members.get(roomId, userId);
    const me = memberAmong(members, userId);
    const key = `${roomId}:${userId}`;
    const now = this.clock();
    const last = this.lastTold.get(key);
    if (last !== undefined && now - last < LIMITS.typingIntervalMs) return;
    if (this.lastTold.size >= this.sweepAt) this.sweep(now);
    this.lastTold.set(key, now);
    if (!(await this.throttle.allow(`typing:${key}`, LIMITS.typingIntervalMs))) return;
    if (!(await this.users.preferences(userId))?.sendTyping) return;
    this.events.typing(roomId, userId, me.name, members);
  }

  /** Drops entries past the interval; sweeping again only once as many more came in. */
  private sweep(now: number): void {
    for (const [key, at] of this.lastTold) if (now - at >= LIMITS.typingIntervalMs) this.lastTold.delete(key);
    this.sweepAt = Math.max(SWEEP_AT, 2 * this.lastTold.size);
  }
}
