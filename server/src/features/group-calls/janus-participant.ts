// One participant of a group call on the node their connection is on: two handles on Janus'
// VideoRoom, the publisher (their own media, offered by them: configure answers) and the
// subscriber (everyone else's streams, offered by Janus: one multistream subscription, updated
// as publishers come and go). The publisher handle hears of the room's publishers; the
// subscription follows them. Subscription changes go one at a time: a new one waits until the
// browser answered the last offer (Janus renegotiates one offer at a time).
import type { GroupCallCandidate, GroupCallPeer, GroupCallStream } from '@common/group-call';
import type { JanusCandidate, JanusHandle, JanusSession, PluginReply } from '../../media/janus-client';

export interface ParticipantOutput {
  publishAnswer(sdp: string): void;
  subscribeOffer(sdp: string, streams: GroupCallStream[]): void;
  candidate(target: GroupCallPeer, candidate: GroupCallCandidate | null): void;
  /** A subscription change Janus refused even after its retries (for the log). */
  subscribeFailed?(err: Error): void;
}

/** How long a subscription change waits for the browser's answer before the next goes anyway. */
const ANSWER_WAIT_MS = 10_000;

/**
 * A subscription change Janus refuses is tried again, after these pauses. Janus lists a publisher
 * as soon as it configured, but refuses a subscription to it ('No such feed') until its own
 * connection is up, which takes longer on a loaded machine: a participant who joined in that
 * window would otherwise never subscribe (it heard nobody).
 */
const SUBSCRIBE_RETRY_MS = [100, 250, 500, 1000, 2000, 4000];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Publisher { id: unknown; streams?: unknown }

/** The ids of the publishers a VideoRoom event lists as publishing something. */
function publishingFeeds(data: Record<string, unknown>): number[] {
  const list = Array.isArray(data.publishers) ? (data.publishers as Publisher[]) : [];
  return list.flatMap((p) => (typeof p.id === 'number' && (!Array.isArray(p.streams) || p.streams.length > 0) ? [p.id] : []));
}

/** The subscriber's m-lines: which feed (user) each mid carries. */
function streamsOf(data: Record<string, unknown>): GroupCallStream[] {
  const list = Array.isArray(data.streams) ? (data.streams as Array<Record<string, unknown>>) : [];
  return list.flatMap((s) => {
    const kind = s.type;
    if ((kind !== 'audio' && kind !== 'video') || typeof s.feed_id !== 'number' || typeof s.mid !== 'string' || s.active === false) return [];
    return [{ mid: s.mid, userId: s.feed_id, kind }];
  });
}

const toCandidate = (c: JanusCandidate | null): GroupCallCandidate | null => c && { candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null };

export class JanusParticipant {
  private subscriber: JanusHandle | null = null;
  private readonly subscribed = new Set<number>();
  private readonly wanted = new Set<number>();
  private queue: Promise<void> = Promise.resolve();
  private answered: (() => void) | null = null;
  private left = false;

  private constructor(
    private readonly session: JanusSession,
    private readonly room: number,
    private readonly pin: string,
    readonly userId: number,
    private readonly out: ParticipantOutput,
    private publisher: JanusHandle | null = null,
  ) {}

  /** Joins the room as a publisher (not yet publishing) and subscribes to who already publishes. */
  static async join(session: JanusSession, room: number, pin: string, userId: number, name: string, out: ParticipantOutput): Promise<JanusParticipant> {
    const participant = new JanusParticipant(session, room, pin, userId, out);
    const publisher = await session.attach({
      event: (reply) => participant.publisherEvent(reply),
      candidate: (c) => out.candidate('publisher', toCandidate(c)),
    });
    participant.publisher = publisher;
    try {
      const joined = await publisher.message({ request: 'join', ptype: 'publisher', room, pin, id: userId, display: name });
      participant.publisherEvent(joined);
    } catch (err) {
      await publisher.detach();
      throw err;
    }
    return participant;
  }

  /** The browser's offer for its own media (again to add or drop a track): Janus' answer goes back. */
  async publish(sdp: string): Promise<void> {
    if (!this.publisher) return;
    const reply = await this.publisher.message({ request: 'configure', audio: true, video: true }, { type: 'offer', sdp });
    if (reply.jsep?.type === 'answer') this.out.publishAnswer(reply.jsep.sdp);
  }

  /** The browser's answer to the latest subscribe offer. */
  async answer(sdp: string): Promise<void> {
    if (!this.subscriber) return;
    await this.subscriber.message({ request: 'start' }, { type: 'answer', sdp });
    const answered = this.answered;
    this.answered = null;
    answered?.();
  }

  async trickle(target: GroupCallPeer, candidate: GroupCallCandidate | null): Promise<void> {
    const handle = target === 'publisher' ? this.publisher : this.subscriber;
    await handle?.trickle(candidate && { candidate: candidate.candidate, sdpMid: candidate.sdpMid ?? null, sdpMLineIndex: candidate.sdpMLineIndex ?? null });
  }

  /** Leaves Janus' room: the others' subscriptions drop this participant's streams. */
  async leave(): Promise<void> {
    this.left = true;
    this.answered?.();
    const handles = [this.subscriber, this.publisher];
    this.subscriber = null;
    this.publisher = null;
    await Promise.all(handles.flatMap((h) => (h ? [h.detach()] : [])));
  }

  private publisherEvent({ data }: PluginReply): void {
    for (const feed of publishingFeeds(data)) if (feed !== this.userId) this.wanted.add(feed);
    for (const key of ['unpublished', 'leaving'] as const) {
      const gone = data[key];
      if (typeof gone === 'number') {
        this.wanted.delete(gone);
        this.subscribed.delete(gone);
      }
    }
    this.follow();
  }

  /** Queues a subscription change for feeds wanted and not yet subscribed. */
  private follow(): void {
    this.queue = this.queue.then(() => this.subscribeNew()).catch((err: unknown) => this.out.subscribeFailed?.(err as Error));
  }

  private async subscribeNew(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.subscribeOnce();
        return;
      } catch (err) {
        if (this.left || attempt >= SUBSCRIBE_RETRY_MS.length) throw err;
        await pause(SUBSCRIBE_RETRY_MS[attempt]);
      }
    }
  }

  /** One subscription change; refused, it leaves nothing behind (its feeds are wanted still). */
  private async subscribeOnce(): Promise<void> {
    const fresh = [...this.wanted].filter((feed) => !this.subscribed.has(feed));
    if (this.left || fresh.length === 0) return;
    for (const feed of fresh) this.subscribed.add(feed);
    const streams = fresh.map((feed) => ({ feed }));
    let reply: PluginReply;
    try {
      if (!this.subscriber) {
        const subscriber = await this.session.attach({
          event: (event) => this.subscriberEvent(event),
          candidate: (c) => this.out.candidate('subscriber', toCandidate(c)),
        });
        try {
          reply = await subscriber.message({ request: 'join', ptype: 'subscriber', room: this.room, pin: this.pin, streams });
        } catch (err) {
          // A handle that never joined cannot take an 'update': the next try attaches afresh.
          await subscriber.detach();
          throw err;
        }
        if (this.left) {
          await subscriber.detach();
          return;
        }
        this.subscriber = subscriber;
      } else {
        reply = await this.subscriber.message({ request: 'update', subscribe: streams });
      }
    } catch (err) {
      for (const feed of fresh) this.subscribed.delete(feed);
      throw err;
    }
    await this.offer(reply);
  }

  /** An offer Janus made on its own (a publisher left, its streams went inactive). */
  private subscriberEvent(reply: PluginReply): void {
    if (reply.jsep?.type !== 'offer') return;
    this.queue = this.queue.then(() => this.offer(reply)).catch(() => undefined);
  }

  /** Hands Janus' offer to the browser and waits for its answer (or the wait to pass). */
  private async offer(reply: PluginReply): Promise<void> {
    if (reply.jsep?.type !== 'offer' || this.left) return;
    const answered = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ANSWER_WAIT_MS);
      this.answered = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.out.subscribeOffer(reply.jsep.sdp, streamsOf(reply.data));
    await answered;
  }
}
