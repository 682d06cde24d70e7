// Group calls (issue 25, docs/architecture.md "Group calls"): one call per room at a time,
// through the SFU. Every check is here: only current members of a room of two or more start,
// join or signal; at most GROUP_CALL_MAX take part. Starting creates a VideoRoom room with its
// own secret on the least loaded media server, rings the other members once (group-incoming, a
// push for closed tabs) and tells the room (its events topic). A participant's Janus handles
// live on the node of the connection that joined; their SDP and candidates pass through here,
// and a signal that arrives on another node (another tab, a connection that moved) is checked
// there and relayed to the node holding the handles (ports.relaySignal). A participant whose last
// connection closed keeps their place for the reconnect grace (marked reconnecting): joining
// again within it takes it back (on any node: the old handles are kicked from the Janus room and
// let go where they are), and so does subscribing to their group-signal queue again (the tab in
// the call reconnected: its media may never have stopped; a page subscribes there only while it
// is in a call); past it they leave. The grace's timer is on the node that saw the
// connection close; a node that stops loses its timers, so any later join in the call also
// removes the participants whose grace is over. The last one out ends the call: the Janus room is destroyed, the room hears groupCallEnded
// and gets a system message. A media server that dies ends its calls with media-server-lost.
//
// Refusals are answered on the user's group-signal queue with a reason and a Korean text, never
// with an ERROR frame: a refused join is an ordinary event, and the socket stays open.
import crypto from 'node:crypto';
import type { CallMedia, ChatRowGroupCall, GroupCallSystemEvent } from '@common/api';
import type {
  GroupCallCandidate, GroupCallParticipant, GroupCallPeer, GroupCallRefusal, GroupCallSignal, GroupCallState, GroupCallStateResponse, GroupIncomingEvent,
} from '@common/group-call';
import type { RoomEvent } from '@common/payloads';
import type { Logger } from '../../log';
import { JanusError, type JanusSession } from '../../media/janus-client';
import type { JanusPool } from '../../media/janus-pool';
import { NotAMemberError } from '../errors';
import type { GroupCallRecord, GroupCallStore } from './group-call-store';
import { JanusParticipant } from './janus-participant';

export const REFUSAL_TEXT: Record<GroupCallRefusal, string> = {
  full: '통화 인원이 가득 찼습니다.',
  'not-member': '이 채팅방의 멤버만 그룹통화에 참여할 수 있습니다.',
  'no-call': '이미 끝난 통화입니다.',
  'already-on': '이 채팅방에서 이미 그룹통화가 진행 중입니다.',
  unavailable: '지금은 그룹통화를 사용할 수 없습니다.',
  'media-server-lost': '통화 서버와의 연결이 끊어져 통화가 종료되었습니다.',
};
const TOO_FEW_MEMBERS = '두 명 이상인 채팅방에서만 그룹통화를 할 수 있습니다.';
const ENDED_TEXT = '그룹통화가 종료되었습니다.';
/** How long a participant whose last connection closed keeps their place (GROUP_CALL_RECONNECT_GRACE_MS). */
export const GROUP_CALL_RECONNECT_GRACE_MS = 15_000;

type IceServers = Extract<GroupCallSignal, { kind: 'joined' }>['iceServers'];

export interface GroupCallPorts {
  /** `blocks`: whom among the members this one blocked (docs/protocol.md, blocks). */
  members(roomId: number): Promise<Array<{ id: number; name: string; blocks?: readonly number[] }>>;
  /** A signal on the user's group-signal queue (every connection of theirs). */
  signal(userId: number, signal: GroupCallSignal): void;
  /** The ring on the user's group-incoming queue. */
  ring(userId: number, event: GroupIncomingEvent): void;
  /** Whether the user has a connection anywhere; those who do not may be pushed. */
  isOnline(userId: number): Promise<boolean>;
  /** Rings a member with no open connection (a push naming the call's room and starter). */
  ringElsewhere?(userId: number, ring: GroupIncomingEvent): void;
  publishRoom(roomId: number, event: RoomEvent): void;
  record(roomId: number, event: GroupCallSystemEvent): Promise<void>;
  iceServers(userId: number): IceServers;
  now(): number;
  /** Tells the other nodes that a participant left a call (the node holding their handles lets them go). */
  tellOthersLeft?(callId: string, userId: number): void;
  /** A call started, ended, or its participants changed in number: the room's chat-list rows changed. */
  rowChanged?(roomId: number): void;
  /** Hands a participant's signal, checked here, to the other nodes: the one holding their handles applies it. */
  relaySignal?(callId: string, userId: number, signal: ParticipantSignal): void;
}

/** What a participant's browser says to its two Janus handles. */
export type ParticipantSignal = { kind: 'publish' | 'subscribe-answer'; sdp: string } | { kind: 'candidate'; target: GroupCallPeer; candidate: GroupCallCandidate | null };

const stateOf = (call: GroupCallRecord): GroupCallState => ({
  active: true, callId: call.callId, chatRoomId: call.chatRoomId, media: call.media, participants: call.participants, startedAt: new Date(call.startedAtMs).toISOString(),
});

export class GroupCallService {
  /** The participants whose Janus handles are on this node, by `${callId}|${userId}`. */
  private readonly local = new Map<string, JanusParticipant>();
  /** The reconnect graces this node is timing, by `${callId}|${userId}`. */
  private readonly graces = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly ports: GroupCallPorts,
    private readonly store: GroupCallStore,
    private readonly pool: JanusPool,
    private readonly max: number,
    private readonly log: Logger,
    private readonly graceMs = GROUP_CALL_RECONNECT_GRACE_MS,
  ) {
    pool.onLost((url) => void this.mediaServerLost(url).catch((err: unknown) => log.error({ err, url }, 'ending the calls of a lost media server failed')));
  }

  /** The calls going on, by room, as chat-list rows show them. */
  async onRows(): Promise<Map<number, ChatRowGroupCall>> {
    const calls = await this.store.all();
    return new Map(calls.filter((c) => c.participants.length > 0).map((c) => [c.chatRoomId, { media: c.media, participantCount: c.participants.length }]));
  }

  /** GET api.groupCall: the room's call, for members only. */
  async state(userId: number, chatRoomId: number): Promise<GroupCallStateResponse> {
    const members = await this.ports.members(chatRoomId);
    if (!members.some((m) => m.id === userId)) throw new NotAMemberError();
    const call = await this.store.ofRoom(chatRoomId);
    return call ? stateOf(call) : { active: false };
  }

  async start(userId: number, chatRoomId: number, media: CallMedia): Promise<void> {
    const members = await this.ports.members(chatRoomId);
    const me = members.find((m) => m.id === userId);
    if (!me) return this.refuse(userId, chatRoomId, null, 'not-member');
    if (members.length < 2) return this.refuse(userId, chatRoomId, null, 'unavailable', TOO_FEW_MEMBERS);
    const existing = await this.store.ofRoom(chatRoomId);
    if (existing) return this.refuse(userId, chatRoomId, existing.callId, 'already-on');
    if (!this.pool.configured) return this.refuse(userId, chatRoomId, null, 'unavailable');
    const placed = await this.createRoom();
    if (!placed) return this.refuse(userId, chatRoomId, null, 'unavailable');
    const record: GroupCallRecord = {
      callId: crypto.randomUUID(), chatRoomId, media, startedAtMs: this.ports.now(), starter: { userId, name: me.name },
      janusUrl: placed.url, janusRoom: placed.room, roomSecret: placed.secret, participants: [], everJoined: [],
    };
    const { created, call } = await this.store.create(record);
    if (!created) {
      await this.destroyRoom(record);
      return this.refuse(userId, chatRoomId, call.callId, 'already-on');
    }
    this.log.info({ callId: call.callId, chatRoomId, url: call.janusUrl }, 'group call started');
    if (!(await this.enter(userId, me.name, call))) return;
    const ring: GroupIncomingEvent = { chatRoomId, callId: call.callId, media, starterName: me.name };
    for (const member of members) {
      // Whoever blocked the starter is not rung (never told either way: the starter sees no difference).
      if (member.id === userId || member.blocks?.includes(userId)) continue;
      if (await this.ports.isOnline(member.id)) this.ports.ring(member.id, ring);
      else this.ports.ringElsewhere?.(member.id, ring);
    }
  }

  async join(userId: number, chatRoomId: number, callId: string): Promise<void> {
    const members = await this.ports.members(chatRoomId);
    const me = members.find((m) => m.id === userId);
    if (!me) return this.refuse(userId, chatRoomId, callId, 'not-member');
    const call = await this.store.ofRoom(chatRoomId);
    if (!call || call.callId !== callId) return this.refuse(userId, chatRoomId, callId, 'no-call');
    await this.enter(userId, me.name, call);
  }

  async leave(userId: number, chatRoomId: number, callId: string): Promise<void> {
    const call = await this.store.ofRoom(chatRoomId);
    if (!call || call.callId !== callId) return;
    await this.leaveCall(userId, call);
  }

  async mediaState(userId: number, chatRoomId: number, callId: string, state: Omit<GroupCallParticipant, 'userId' | 'name'>): Promise<void> {
    const call = await this.store.ofRoom(chatRoomId);
    const me = call?.callId === callId ? call.participants.find((p) => p.userId === userId) : undefined;
    if (!call || !me) return this.refuse(userId, chatRoomId, callId, (await this.isMember(userId, chatRoomId)) ? 'no-call' : 'not-member');
    const now = await this.store.update(chatRoomId, callId, { ...me, ...state });
    if (now) this.ports.publishRoom(chatRoomId, { type: 'groupCall', ...stateOf(now) });
  }

  /** publish, subscribe-answer and candidates of a participant: applied here, or relayed to the node holding their handles. */
  async signal(userId: number, chatRoomId: number, callId: string, signal: ParticipantSignal): Promise<void> {
    if (!(await this.isMember(userId, chatRoomId))) return this.refuse(userId, chatRoomId, callId, 'not-member');
    const participant = this.local.get(`${callId}|${userId}`);
    if (!participant) {
      const call = await this.store.ofRoom(chatRoomId);
      // In the call through another node's connection: that node holds the handles.
      if (call?.callId === callId && call.participants.some((p) => p.userId === userId)) return this.ports.relaySignal?.(callId, userId, signal);
      return this.refuse(userId, chatRoomId, callId, 'no-call');
    }
    await this.apply(participant, callId, signal);
  }

  /** A signal another node checked and relayed: applied if this node holds the participant's handles. */
  async relayedSignal(callId: string, userId: number, signal: ParticipantSignal): Promise<void> {
    const participant = this.local.get(`${callId}|${userId}`);
    if (participant) await this.apply(participant, callId, signal);
  }

  private async apply(participant: JanusParticipant, callId: string, signal: ParticipantSignal): Promise<void> {
    const { userId } = participant;
    try {
      if (signal.kind === 'publish') await participant.publish(signal.sdp);
      else if (signal.kind === 'subscribe-answer') await participant.answer(signal.sdp);
      else if (signal.kind === 'candidate') await participant.trickle(signal.target, signal.candidate);
    } catch (err) {
      if (!(err instanceof JanusError)) throw err;
      this.log.warn({ err: err.message, code: err.code, userId, callId, kind: signal.kind }, 'janus refused a group-call signal');
    }
  }

  /** The user left the room: they leave its call at once. */
  async gone(userId: number, chatRoomId: number): Promise<void> {
    const call = await this.store.ofRoom(chatRoomId);
    if (call?.participants.some((p) => p.userId === userId)) await this.leaveCall(userId, call);
  }

  /** The user's last connection anywhere closed: in each of their calls they are reconnecting, for the grace. */
  async disconnected(userId: number): Promise<void> {
    for (const call of await this.store.all()) {
      if (!call.participants.some((p) => p.userId === userId && !p.reconnecting)) continue;
      const untilMs = this.ports.now() + this.graceMs;
      const now = await this.store.markAway(call.chatRoomId, call.callId, userId, untilMs);
      if (!now) continue;
      this.ports.publishRoom(call.chatRoomId, { type: 'groupCall', ...stateOf(now) });
      const key = `${call.callId}|${userId}`;
      clearTimeout(this.graces.get(key));
      // The grace this timer times is the one stored (untilMs), not the clock's reading when it
      // fires: a timer counts from the event loop's cached time, which on a busy node is behind
      // the clock read above, so it can fire a few ms "before" untilMs and would keep them forever.
      const timer = setTimeout(() => {
        this.graces.delete(key);
        this.leaveCall(userId, now, untilMs).catch((err: unknown) => this.log.error({ err, callId: call.callId, userId }, 'ending a reconnect grace failed'));
      }, this.graceMs);
      timer.unref();
      this.graces.set(key, timer);
    }
  }

  /** Another node saw the participant leave: their handles here (if any) let go. */
  async leftElsewhere(callId: string, userId: number): Promise<void> {
    const key = `${callId}|${userId}`;
    const participant = this.local.get(key);
    this.local.delete(key);
    await participant?.leave();
  }

  /** The user subscribed to their group-signal queue: a tab in a call is back, its place kept (its media never depended on the socket). */
  async resubscribed(userId: number): Promise<void> {
    for (const call of await this.store.all()) {
      if (!call.participants.some((p) => p.userId === userId && p.reconnecting)) continue;
      const key = `${call.callId}|${userId}`;
      clearTimeout(this.graces.get(key));
      this.graces.delete(key);
      const now = await this.store.markAway(call.chatRoomId, call.callId, userId, null);
      if (now) this.ports.publishRoom(call.chatRoomId, { type: 'groupCall', ...stateOf(now) });
    }
  }

  /** Server shutdown: this node's participants leave Janus (their calls go on elsewhere or end with the instance). */
  async stop(): Promise<void> {
    for (const timer of this.graces.values()) clearTimeout(timer);
    this.graces.clear();
    const all = [...this.local.values()];
    this.local.clear();
    await Promise.allSettled(all.map((p) => p.leave()));
    await this.pool.stop();
  }

  private async isMember(userId: number, chatRoomId: number): Promise<boolean> {
    return (await this.ports.members(chatRoomId)).some((m) => m.id === userId);
  }

  private refuse(userId: number, chatRoomId: number, callId: string | null, reason: GroupCallRefusal, message = REFUSAL_TEXT[reason]): void {
    this.ports.signal(userId, { kind: 'refused', callId, chatRoomId, reason, message });
  }

  /** A VideoRoom room on the least loaded media server that answers. */
  private async createRoom(): Promise<{ url: string; room: number; secret: string } | null> {
    const calls = await this.store.all();
    const load = (url: string) => calls.filter((c) => c.janusUrl === url).reduce((n, c) => n + Math.max(1, c.participants.length), 0);
    for (const url of await this.pool.candidates(load)) {
      try {
        const session = await this.pool.session(url);
        const room = crypto.randomInt(1, 2 ** 47);
        const secret = crypto.randomBytes(18).toString('base64url');
        await withHandle(session, (h) => h.request({
          request: 'create', room, secret, pin: secret, permanent: false, is_private: true, publishers: this.max,
          audiocodec: 'opus', videocodec: 'vp8', notify_joining: false,
        }));
        return { url, room, secret };
      } catch (err) {
        this.log.warn({ url, err: (err as Error).message }, 'no group-call room on this media server');
      }
    }
    return null;
  }

  private async destroyRoom(call: GroupCallRecord): Promise<void> {
    try {
      const session = await this.pool.session(call.janusUrl);
      await withHandle(session, (h) => h.request({ request: 'destroy', room: call.janusRoom, secret: call.roomSecret }));
    } catch (err) {
      this.log.debug({ err: (err as Error).message, callId: call.callId }, 'the group-call room could not be destroyed (gone with its server?)');
    }
  }

  /** Takes the user into the call: a place in the store, then their handles on this node. */
  private async enter(userId: number, name: string, call: GroupCallRecord): Promise<boolean> {
    const { chatRoomId, callId } = call;
    const joined = await this.store.join(chatRoomId, callId, { userId, name, muted: false, camera: call.media === 'video', screen: false }, this.max);
    if (joined.kind !== 'joined') {
      this.refuse(userId, chatRoomId, callId, joined.kind);
      return false;
    }
    const key = `${callId}|${userId}`;
    clearTimeout(this.graces.get(key));
    this.graces.delete(key);
    await this.removeOverdue(joined.call);
    // Joined again (another tab, a reload, back within the grace): the old handles give way to
    // the new ones, here or on the node holding them (Janus refuses a second publisher of the
    // same id, so the old one is kicked out of the room first).
    const wasIn = call.participants.some((p) => p.userId === userId);
    const old = this.local.get(key);
    this.local.delete(key);
    try {
      if (old) await old.leave();
      else if (wasIn) await this.kickElsewhere(call, userId);
      const session = await this.pool.session(call.janusUrl);
      const participant = await JanusParticipant.join(session, call.janusRoom, call.roomSecret, userId, name, {
        publishAnswer: (sdp) => this.ports.signal(userId, { kind: 'publish-answer', callId, sdp }),
        subscribeOffer: (sdp, streams) => this.ports.signal(userId, { kind: 'subscribe-offer', callId, sdp, streams }),
        candidate: (target, candidate) => this.ports.signal(userId, { kind: 'candidate', callId, target, candidate }),
        subscribeFailed: (err) => this.log.warn({ err: err.message, callId, userId }, 'janus refused a group-call subscription after its retries'),
      });
      this.local.set(key, participant);
    } catch (err) {
      this.log.error({ err: (err as Error).message, callId, userId }, 'could not join the group call on its media server');
      const now = await this.store.leave(chatRoomId, callId, userId);
      this.refuse(userId, chatRoomId, callId, 'unavailable');
      if (now && now.participants.length === 0) await this.end(now, 'ended');
      return false;
    }
    this.ports.signal(userId, { kind: 'joined', callId, chatRoomId, media: call.media, iceServers: this.ports.iceServers(userId) });
    this.ports.publishRoom(chatRoomId, { type: 'groupCall', ...stateOf(joined.call) });
    this.ports.rowChanged?.(chatRoomId);
    return true;
  }

  /** Janus lets go of the participant's old publisher, whose handles another node holds; that node drops them. */
  private async kickElsewhere(call: GroupCallRecord, userId: number): Promise<void> {
    this.ports.tellOthersLeft?.(call.callId, userId);
    try {
      const session = await this.pool.session(call.janusUrl);
      await withHandle(session, (h) => h.request({ request: 'kick', room: call.janusRoom, secret: call.roomSecret, id: userId }));
    } catch (err) {
      // No such participant (the old handles were already gone): nothing to kick.
      if (!(err instanceof JanusError)) throw err;
    }
  }

  /** Participants whose reconnect grace is over, on a node that could not time it (it stopped), leave. */
  private async removeOverdue(call: GroupCallRecord): Promise<void> {
    const now = this.ports.now();
    for (const [userId, until] of Object.entries(call.awayUntilMs ?? {})) {
      if (until <= now && !this.graces.has(`${call.callId}|${userId}`)) await this.leaveCall(Number(userId), call, now);
    }
  }

  /** Out of the call (with `awayBy`: only if still away with a grace ended by then); the last one out ends it. */
  private async leaveCall(userId: number, call: GroupCallRecord, awayBy?: number): Promise<void> {
    const now = await this.store.leave(call.chatRoomId, call.callId, userId, awayBy);
    // Back within the grace (or already gone): their place and handles stay.
    if (!now && awayBy !== undefined) return;
    const key = `${call.callId}|${userId}`;
    const participant = this.local.get(key);
    this.local.delete(key);
    if (participant) await participant.leave();
    else this.ports.tellOthersLeft?.(call.callId, userId);
    if (!now) return;
    if (now.participants.length === 0) return this.end(now, 'ended');
    this.ports.publishRoom(call.chatRoomId, { type: 'groupCall', ...stateOf(now) });
    this.ports.rowChanged?.(call.chatRoomId);
  }

  /** Ends the call once (whoever gets it from the store): Janus' room, the room's news, the record. */
  private async end(call: GroupCallRecord, reason: 'ended' | 'media-server-lost'): Promise<void> {
    const ended = await this.store.end(call.chatRoomId, call.callId);
    if (!ended) return;
    const endedAt = this.ports.now();
    for (const [key, timer] of this.graces) {
      if (!key.startsWith(`${call.callId}|`)) continue;
      clearTimeout(timer);
      this.graces.delete(key);
    }
    for (const [key, participant] of this.local) {
      if (!key.startsWith(`${call.callId}|`)) continue;
      this.local.delete(key);
      await participant.leave();
    }
    if (reason === 'ended') await this.destroyRoom(ended);
    const message = reason === 'ended' ? ENDED_TEXT : REFUSAL_TEXT['media-server-lost'];
    for (const p of ended.participants) this.ports.signal(p.userId, { kind: 'ended', callId: ended.callId, chatRoomId: ended.chatRoomId, reason, message });
    this.ports.publishRoom(ended.chatRoomId, { type: 'groupCallEnded', chatRoomId: ended.chatRoomId, callId: ended.callId });
    this.ports.rowChanged?.(ended.chatRoomId);
    for (const p of ended.participants) this.ports.tellOthersLeft?.(ended.callId, p.userId);
    this.log.info({ callId: ended.callId, chatRoomId: ended.chatRoomId, reason }, 'group call ended');
    await this.ports.record(ended.chatRoomId, {
      type: 'groupCall', actorUserId: ended.starter.userId, actorName: ended.starter.name, media: ended.media,
      durationSec: Math.max(0, Math.round((endedAt - ended.startedAtMs) / 1000)), participantCount: Math.max(1, ended.everJoined.length),
    });
  }

  private async mediaServerLost(url: string): Promise<void> {
    for (const call of await this.store.all()) {
      if (call.janusUrl === url) await this.end(call, 'media-server-lost');
    }
  }
}

/** A short-lived handle for a synchronous room request. */
async function withHandle<T>(session: JanusSession, use: (handle: Awaited<ReturnType<JanusSession['attach']>>) => Promise<T>): Promise<T> {
  const handle = await session.attach();
  try {
    return await use(handle);
  } finally {
    await handle.detach();
  }
}
