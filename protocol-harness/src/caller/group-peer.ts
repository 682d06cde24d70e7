// One headless participant of a group call (issue 25): a publishing connection that sends its
// own tone to the SFU, and a receiving connection that Janus offers (again whenever the set of
// published streams changes) carrying everyone else's streams. Each received audio m-line is
// mapped to its participant (the subscribe-offer's streams) and measured against that
// participant's tone, so the participant proves whom it hears.
import type { GroupCallCandidate, GroupCallPeer, GroupCallSignal } from '@common/group-call';
import { AudioMeter, type SinkFrame } from './audio-meter';
import { newAudioSink, newAudioSource, newPeerConnection } from './native-media';
import { TonePlayer } from './tone';

type Outgoing =
  | { kind: 'publish' | 'subscribe-answer'; sdp: string }
  | { kind: 'candidate'; target: GroupCallPeer; candidate: GroupCallCandidate | null };

export interface GroupPeerOptions {
  userId: number;
  toneHz: number;
  /** The tone each other participant sends, by user id. */
  toneOf(userId: number): number | undefined;
  /** Sends a /app/group-call/signal body (chatRoomId and callId are added by the sender). */
  send(signal: Outgoing): void;
  note?(message: string): void;
}

export class GroupPeer {
  /** By user id: the meter of the audio received from them. */
  readonly meters = new Map<number, AudioMeter>();
  /** performance.now() of the first moment each participant was heard. */
  readonly heardAt = new Map<number, number>();
  /**
   * performance.now() of the first time each step of the join happened (the join-time breakdown
   * of bench/group-call.ts): the publish offer sent, Janus' answer, the publishing connection up,
   * the first subscribe offer, the receiving connection up.
   */
  readonly marks: Partial<Record<'publishSent' | 'publishAnswer' | 'publisherConnected' | 'firstSubscribeOffer' | 'subscriberConnected', number>> = {};
  /** How many subscribe offers came (each a renegotiation of the receiving connection). */
  subscribeOffers = 0;
  private publisher: RTCPeerConnection | null = null;
  private subscriber: RTCPeerConnection | null = null;
  private tone: TonePlayer | null = null;
  private readonly sinks: Array<{ stop(): void }> = [];
  private readonly midToUser = new Map<string, number>();
  private readonly pending: Record<GroupCallPeer, GroupCallCandidate[]> = { publisher: [], subscriber: [] };
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: GroupPeerOptions) {}

  /** Every group-signal for this participant, in order. */
  handle(signal: GroupCallSignal): Promise<void> {
    this.chain = this.chain.then(() => this.apply(signal)).catch((err: unknown) => this.options.note?.(`signal ${signal.kind} failed: ${String(err)}`));
    return this.chain;
  }

  /** Whether this participant hears the given user's tone now. */
  hears(userId: number): boolean {
    const heard = this.meters.get(userId)?.hearsTone() ?? false;
    if (heard && !this.heardAt.has(userId)) this.heardAt.set(userId, performance.now());
    return heard;
  }

  /** performance.now() of the first frame with sound received from the user (null: none yet). */
  firstSoundFrom(userId: number): number | null {
    return this.meters.get(userId)?.report().firstSoundAt ?? null;
  }

  /** What this participant's connections and meters show, for a report or a failure message. */
  status(): object {
    return {
      publisher: this.publisher && { connection: this.publisher.connectionState, ice: this.publisher.iceConnectionState, signaling: this.publisher.signalingState },
      subscriber: this.subscriber && { connection: this.subscriber.connectionState, ice: this.subscriber.iceConnectionState, signaling: this.subscriber.signalingState },
      mids: Object.fromEntries(this.midToUser),
      heard: Object.fromEntries([...this.meters].map(([userId, meter]) => [userId, meter.report()])),
    };
  }

  /** Bytes and packets the publishing connection has sent of its audio (RTP payload and headers, no IP/UDP). */
  async outboundAudio(): Promise<{ bytes: number; packets: number }> {
    const out = { bytes: 0, packets: 0 };
    if (!this.publisher) return out;
    (await this.publisher.getStats()).forEach((s: Record<string, unknown>) => {
      if (s.type !== 'outbound-rtp' || (s.kind ?? s.mediaType) !== 'audio') return;
      out.bytes += Number(s.bytesSent ?? 0) + Number(s.headerBytesSent ?? 0);
      out.packets += Number(s.packetsSent ?? 0);
    });
    return out;
  }

  private mark(step: keyof GroupPeer['marks']): void {
    this.marks[step] ??= performance.now();
  }

  /** Marks the step when the connection first reaches "connected". */
  private watch(pc: RTCPeerConnection, step: 'publisherConnected' | 'subscriberConnected'): void {
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'connected') this.mark(step);
    };
  }

  close(): void {
    this.tone?.stop();
    for (const sink of this.sinks) sink.stop();
    this.publisher?.close();
    this.subscriber?.close();
    this.publisher = null;
    this.subscriber = null;
  }

  private async apply(signal: GroupCallSignal): Promise<void> {
    switch (signal.kind) {
      case 'joined':
        await this.publish(signal.iceServers);
        return;
      case 'publish-answer':
        this.mark('publishAnswer');
        await this.publisher?.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
        await this.drain('publisher');
        return;
      case 'subscribe-offer': {
        this.mark('firstSubscribeOffer');
        this.subscribeOffers++;
        this.midToUser.clear();
        for (const s of signal.streams) this.midToUser.set(s.mid, s.userId);
        // Who is no longer carried left: heard again only once they are back.
        const carried = new Set(this.midToUser.values());
        for (const userId of [...this.meters.keys()]) if (!carried.has(userId)) this.meters.delete(userId);
        const pc = this.subscriber ?? this.openSubscriber();
        await pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
        await this.drain('subscriber');
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        this.options.send({ kind: 'subscribe-answer', sdp: pc.localDescription?.sdp ?? answer.sdp ?? '' });
        return;
      }
      case 'candidate':
        this.pending[signal.target].push(...(signal.candidate ? [signal.candidate] : []));
        await this.drain(signal.target);
        return;
      default:
        return;
    }
  }

  private async publish(iceServers: RTCIceServer[]): Promise<void> {
    this.iceServers = iceServers;
    const pc = newPeerConnection({ iceServers });
    this.publisher = pc;
    this.watch(pc, 'publisherConnected');
    const source = newAudioSource();
    pc.addTransceiver(source.createTrack(), { direction: 'sendonly' });
    this.tone = new TonePlayer(source, this.options.toneHz);
    this.tone.start();
    this.trickle(pc, 'publisher');
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    this.mark('publishSent');
    this.options.send({ kind: 'publish', sdp: pc.localDescription?.sdp ?? offer.sdp ?? '' });
  }

  private iceServers: RTCIceServer[] = [];

  private openSubscriber(): RTCPeerConnection {
    const pc = newPeerConnection({ iceServers: this.iceServers });
    this.subscriber = pc;
    this.watch(pc, 'subscriberConnected');
    this.trickle(pc, 'subscriber');
    pc.ontrack = (e) => {
      if (e.track.kind !== 'audio') return;
      const mid = e.transceiver.mid;
      if (mid === null) return;
      // Janus reuses an m-line a participant left for the next one: the sound goes to whoever
      // the m-line carries now (the latest subscribe-offer's streams).
      const sink = newAudioSink(e.track);
      sink.ondata = (frame: SinkFrame) => {
        const userId = this.midToUser.get(mid);
        const meter = userId === undefined ? undefined : this.meterOf(userId);
        meter?.push(frame, performance.now());
      };
      this.sinks.push(sink);
    };
    return pc;
  }

  private meterOf(userId: number): AudioMeter | undefined {
    const existing = this.meters.get(userId);
    if (existing) return existing;
    const hz = this.options.toneOf(userId);
    if (hz === undefined) return undefined;
    const meter = new AudioMeter(hz);
    this.meters.set(userId, meter);
    return meter;
  }

  private trickle(pc: RTCPeerConnection, target: GroupCallPeer): void {
    pc.onicecandidate = (e) => {
      const c = e.candidate;
      this.options.send({ kind: 'candidate', target, candidate: c ? { candidate: c.candidate, sdpMid: c.sdpMid, sdpMLineIndex: c.sdpMLineIndex } : null });
    };
  }

  /** Janus' candidates wait for the remote description of their connection. */
  private async drain(target: GroupCallPeer): Promise<void> {
    const pc = target === 'publisher' ? this.publisher : this.subscriber;
    if (!pc?.remoteDescription) return;
    for (const c of this.pending[target].splice(0)) {
      // Janus trickles its candidates with no mid, only the m-line's index. A browser reads a null
      // sdpMid as "use the index"; wrtc refuses it ("Failed to set ICE candidate") and takes only an
      // absent one. Every candidate of Janus refused, a connection came up only when Janus' own
      // checks reached us first (a peer-reflexive candidate), and under load it often did not.
      const init = c.sdpMid === null ? { candidate: c.candidate, sdpMLineIndex: c.sdpMLineIndex } : c;
      // A candidate for an m-line the description does not have (yet) is of no use: noted, skipped.
      await pc.addIceCandidate(init).catch((err: unknown) => this.options.note?.(`${target} candidate skipped (${c.candidate}; mid ${c.sdpMid}, index ${c.sdpMLineIndex}): ${String(err)}`));
    }
  }
}

