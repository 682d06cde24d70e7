// Where group calls are recorded: at most one call per room, its participants, and the media
// server and Janus room it lives on, so that every node sees it (memory for one process; a
// cluster keeps the same records in Redis: cluster/redis-group-call-store.ts). Joining checks the
// limit and adds in one step; the last one out ends the call, once. A participant whose last
// connection closed is marked away until a time (the reconnect grace): joining again clears the
// mark, and the grace's end removes them only if the mark is still there and due.
import type { CallMedia } from '@common/api';
import type { GroupCallParticipant } from '@common/group-call';

export interface GroupCallRecord {
  callId: string;
  chatRoomId: number;
  media: CallMedia;
  startedAtMs: number;
  starter: { userId: number; name: string };
  /** The Janus instance (…/janus) and the VideoRoom room of the call, with its secret. */
  janusUrl: string;
  janusRoom: number;
  roomSecret: string;
  participants: GroupCallParticipant[];
  /** Everyone who took part at some point (the record's participantCount). */
  everJoined: number[];
  /** The participants marked reconnecting, by user id: when their grace ends (epoch ms). */
  awayUntilMs?: Record<string, number>;
}

export type JoinResult = { kind: 'joined'; call: GroupCallRecord } | { kind: 'full' } | { kind: 'no-call' };

export interface GroupCallStore {
  ofRoom(chatRoomId: number): Promise<GroupCallRecord | null>;
  /** Records a new call unless the room has one (then that one is answered, not recorded). */
  create(call: GroupCallRecord): Promise<{ created: boolean; call: GroupCallRecord }>;
  /** Adds (or refreshes) a participant unless the call is full or gone. */
  join(chatRoomId: number, callId: string, participant: GroupCallParticipant, max: number): Promise<JoinResult>;
  /**
   * Removes a participant: the call as it is now, or null if they were not in it. With `awayBy`,
   * only if they are marked away with a grace that ended by then (the grace's end: not if they
   * came back meanwhile).
   */
  leave(chatRoomId: number, callId: string, userId: number, awayBy?: number): Promise<GroupCallRecord | null>;
  /**
   * Marks a participant reconnecting until `untilMs`, or (null) back: the call as it is now, or
   * null if they are not in it (or, for back, were not away).
   */
  markAway(chatRoomId: number, callId: string, userId: number, untilMs: number | null): Promise<GroupCallRecord | null>;
  /** A participant's microphone, camera and screen. */
  update(chatRoomId: number, callId: string, participant: GroupCallParticipant): Promise<GroupCallRecord | null>;
  /** Ends the call if it is still there: the call as it ended, to this caller only. */
  end(chatRoomId: number, callId: string): Promise<GroupCallRecord | null>;
  /** Every call (the ones on a lost media server, a participant's calls, the load of each server). */
  all(): Promise<GroupCallRecord[]>;
}

/** The changes every store makes to a call record, in place; a shared store makes them under its own lock. */
export const recordChanges = {
  /** Adds or refreshes the participant; false when the call is full. */
  join(call: GroupCallRecord, participant: GroupCallParticipant, max: number): boolean {
    const at = call.participants.findIndex((p) => p.userId === participant.userId);
    if (at >= 0) call.participants[at] = participant;
    else if (call.participants.length >= max) return false;
    else call.participants.push(participant);
    if (!call.everJoined.includes(participant.userId)) call.everJoined.push(participant.userId);
    if (call.awayUntilMs) delete call.awayUntilMs[participant.userId];
    return true;
  },
  /** False when they were not in it (or, with `awayBy`, not away with a grace ended by then). */
  leave(call: GroupCallRecord, userId: number, awayBy?: number): boolean {
    if (!call.participants.some((p) => p.userId === userId)) return false;
    if (awayBy !== undefined) {
      const until = call.awayUntilMs?.[userId];
      if (until === undefined || until > awayBy) return false;
    }
    call.participants = call.participants.filter((p) => p.userId !== userId);
    if (call.awayUntilMs) delete call.awayUntilMs[userId];
    return true;
  },
  /** Away until `untilMs`, or (null) back; false when they are not in it (or, for back, were not away). */
  markAway(call: GroupCallRecord, userId: number, untilMs: number | null): boolean {
    const participant = call.participants.find((p) => p.userId === userId);
    if (!participant) return false;
    if (untilMs === null) {
      if (!participant.reconnecting) return false;
      delete participant.reconnecting;
      if (call.awayUntilMs) delete call.awayUntilMs[userId];
      return true;
    }
    participant.reconnecting = true;
    call.awayUntilMs = { ...call.awayUntilMs, [userId]: untilMs };
    return true;
  },
  /** False when they are not in it. */
  update(call: GroupCallRecord, participant: GroupCallParticipant): boolean {
    const at = call.participants.findIndex((p) => p.userId === participant.userId);
    if (at < 0) return false;
    call.participants[at] = participant;
    return true;
  },
};

export class MemoryGroupCallStore implements GroupCallStore {
  private readonly byRoom = new Map<number, GroupCallRecord>();

  ofRoom(chatRoomId: number): Promise<GroupCallRecord | null> {
    return Promise.resolve(this.copy(this.byRoom.get(chatRoomId)));
  }

  create(call: GroupCallRecord): Promise<{ created: boolean; call: GroupCallRecord }> {
    const existing = this.byRoom.get(call.chatRoomId);
    if (existing) return Promise.resolve({ created: false, call: structuredClone(existing) });
    this.byRoom.set(call.chatRoomId, structuredClone(call));
    return Promise.resolve({ created: true, call });
  }

  join(chatRoomId: number, callId: string, participant: GroupCallParticipant, max: number): Promise<JoinResult> {
    const call = this.current(chatRoomId, callId);
    if (!call) return Promise.resolve({ kind: 'no-call' });
    if (!recordChanges.join(call, participant, max)) return Promise.resolve({ kind: 'full' });
    return Promise.resolve({ kind: 'joined', call: structuredClone(call) });
  }

  leave(chatRoomId: number, callId: string, userId: number, awayBy?: number): Promise<GroupCallRecord | null> {
    const call = this.current(chatRoomId, callId);
    if (!call || !recordChanges.leave(call, userId, awayBy)) return Promise.resolve(null);
    return Promise.resolve(structuredClone(call));
  }

  markAway(chatRoomId: number, callId: string, userId: number, untilMs: number | null): Promise<GroupCallRecord | null> {
    const call = this.current(chatRoomId, callId);
    if (!call || !recordChanges.markAway(call, userId, untilMs)) return Promise.resolve(null);
    return Promise.resolve(structuredClone(call));
  }

  update(chatRoomId: number, callId: string, participant: GroupCallParticipant): Promise<GroupCallRecord | null> {
    const call = this.current(chatRoomId, callId);
    if (!call || !recordChanges.update(call, participant)) return Promise.resolve(null);
    return Promise.resolve(structuredClone(call));
  }

  end(chatRoomId: number, callId: string): Promise<GroupCallRecord | null> {
    const call = this.current(chatRoomId, callId);
    if (!call) return Promise.resolve(null);
    this.byRoom.delete(chatRoomId);
    return Promise.resolve(call);
  }

  all(): Promise<GroupCallRecord[]> {
    return Promise.resolve([...this.byRoom.values()].map((c) => structuredClone(c)));
  }

  private current(chatRoomId: number, callId: string): GroupCallRecord | null {
    const call = this.byRoom.get(chatRoomId);
    return call?.callId === callId ? call : null;
  }

  private copy(call: GroupCallRecord | undefined): GroupCallRecord | null {
    return call ? structuredClone(call) : null;
  }
}
