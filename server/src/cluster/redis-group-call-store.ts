// Group calls for a cluster, in Redis (features/group-calls/group-call-store.ts): each call is
// one JSON value at `groupcall:{roomId}`, the rooms with a call in the set `groupcall:rooms`.
// Every change reads, changes and writes the value under WATCH on a connection of its own, one
// change at a time on this node: a change another node made in between makes the write fail,
// and it is made again on what is there now. So two nodes never both take the last place, and
// only one of them ends a call.
import type { Redis } from 'ioredis';
import { recordChanges, type GroupCallRecord, type GroupCallStore, type JoinResult } from '../features/group-calls/group-call-store';

const INDEX = 'groupcall:rooms';
const key = (roomId: number) => `groupcall:${roomId}`;
const ATTEMPTS = 20;

export class RedisGroupCallStore implements GroupCallStore {
  private readonly redis: Redis;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(shared: Redis) {
    // WATCH belongs to a connection: this store's alone.
    this.redis = shared.duplicate();
  }

  async ofRoom(chatRoomId: number): Promise<GroupCallRecord | null> {
    return parse(await this.redis.get(key(chatRoomId)));
  }

  create(call: GroupCallRecord): Promise<{ created: boolean; call: GroupCallRecord }> {
    return this.modify<{ created: boolean; call: GroupCallRecord }>(call.chatRoomId, (current) => (current ? { result: { created: false, call: current } } : { next: call, result: { created: true, call } }));
  }

  join(chatRoomId: number, callId: string, participant: GroupCallRecord['participants'][number], max: number): Promise<JoinResult> {
    return this.modify<JoinResult>(chatRoomId, (call) => {
      if (call?.callId !== callId) return { result: { kind: 'no-call' } };
      if (!recordChanges.join(call, participant, max)) return { result: { kind: 'full' } };
      return { next: call, result: { kind: 'joined', call } };
    });
  }

  leave(chatRoomId: number, callId: string, userId: number, awayBy?: number): Promise<GroupCallRecord | null> {
    return this.modify(chatRoomId, (call) => (call?.callId === callId && recordChanges.leave(call, userId, awayBy) ? { next: call, result: call } : { result: null }));
  }

  markAway(chatRoomId: number, callId: string, userId: number, untilMs: number | null): Promise<GroupCallRecord | null> {
    return this.modify(chatRoomId, (call) => (call?.callId === callId && recordChanges.markAway(call, userId, untilMs) ? { next: call, result: call } : { result: null }));
  }

  update(chatRoomId: number, callId: string, participant: GroupCallRecord['participants'][number]): Promise<GroupCallRecord | null> {
    return this.modify(chatRoomId, (call) => (call?.callId === callId && recordChanges.update(call, participant) ? { next: call, result: call } : { result: null }));
  }

  end(chatRoomId: number, callId: string): Promise<GroupCallRecord | null> {
    return this.modify(chatRoomId, (call) => (call?.callId === callId ? { next: null, result: call } : { result: null }));
  }

  async all(): Promise<GroupCallRecord[]> {
    const rooms = await this.redis.smembers(INDEX);
    if (rooms.length === 0) return [];
    const values = await this.redis.mget(rooms.map((r) => key(Number(r))));
    return values.flatMap((v) => {
      const call = parse(v);
      return call ? [call] : [];
    });
  }

  close(): void {
    this.redis.disconnect();
  }

  /** One change at a time on this node; again when another node changed the call meanwhile. */
  private modify<T>(roomId: number, change: (call: GroupCallRecord | null) => { next?: GroupCallRecord | null; result: T }): Promise<T> {
    const run = this.turn.then(async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        await this.redis.watch(key(roomId));
        const { next, result } = change(parse(await this.redis.get(key(roomId))));
        if (next === undefined) {
          await this.redis.unwatch();
          return result;
        }
        const multi = this.redis.multi();
        if (next === null) multi.del(key(roomId)).srem(INDEX, String(roomId));
        else multi.set(key(roomId), JSON.stringify(next)).sadd(INDEX, String(roomId));
        if (await multi.exec()) return result;
      }
      throw new Error(`group call of room ${roomId}: too many concurrent changes`);
    });
    this.turn = run.catch(() => undefined);
    return run;
  }
}

function parse(raw: string | null): GroupCallRecord | null {
  return raw ? (JSON.parse(raw) as GroupCallRecord) : null;
}
