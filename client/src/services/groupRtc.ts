// The browser's side of a group call through the SFU (issue 25, common/group-call.ts): this
// user's media published on one peer connection, everyone else's received on another (Janus'
// multistream subscriber, offered by the server again whenever the set of streams changes).
// Like services/rtc.ts, peer connections and streams live here, never in Redux; the group call
// saga reaches this through its context and tests hand it a fake. Loads with the first group
// call (chunk `group-call`).
//
// The publisher always offers one audio and one video m-line, even for a voice call: the camera
// or a shared screen then only replaces the track the video sender sends, with no new round
// through the server (the same choice as the 1:1 call's, docs/architecture.md §5 "Calls").
import type { GroupCallCandidate, GroupCallPeer, GroupCallStream } from '@common/group-call';
import { boundGroupAudios, boundGroupVideos, onGroupElementsBound } from './groupCallElements';
import { openBrowserMedia, type BrowserMedia, type LocalMedia } from './rtc';

export type GroupSessionEvent =
  | { type: 'candidate'; target: GroupCallPeer; candidate: GroupCallCandidate | null }
  | { type: 'state'; target: GroupCallPeer; state: RTCPeerConnectionState };

export interface GroupSession {
  readonly media: LocalMedia;
  /** The publisher's offer (set as its local description). */
  publishOffer(): Promise<string>;
  acceptPublishAnswer(sdp: string): Promise<void>;
  /** Applies the server's subscribe offer and answers it; streams says whose each m-line is. */
  acceptSubscribeOffer(sdp: string, streams: GroupCallStream[]): Promise<string>;
  addCandidate(target: GroupCallPeer, candidate: GroupCallCandidate | null): Promise<void>;
  onEvent(listener: (event: GroupSessionEvent) => void): () => void;
  /** Each remote participant's audio level now (0..1). */
  audioLevels(): Promise<Array<{ userId: number; level: number }>>;
  close(): void;
}

export interface GroupRtcService {
  /** Opens the microphone (and camera), then the two peer connections; rejects when the microphone is refused. */
  open(video: boolean, iceServers: RTCIceServer[]): Promise<GroupSession>;
}

function setSource(element: HTMLMediaElement, stream: MediaStream | null): void {
  if (element.srcObject === stream) return;
  element.srcObject = stream;
  if (stream) element.play().catch(() => undefined);
}

function toCandidate(candidate: RTCIceCandidate | null): GroupCallCandidate | null {
  return candidate ? { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex } : null;
}

export function createBrowserGroupRtc(): GroupRtcService {
  return {
    async open(video, iceServers) {
      let session: BrowserGroupSession | null = null;
      const media = await openBrowserMedia(video, () => session?.render(), () => session?.render());
      session = new BrowserGroupSession(media, iceServers);
      return session;
    },
  };
}

class BrowserGroupSession implements GroupSession {
  private readonly publisher: RTCPeerConnection;
  private readonly subscriber: RTCPeerConnection;
  private readonly listeners = new Set<(event: GroupSessionEvent) => void>();
  /** Whose each subscriber m-line is, by mid, as the latest subscribe offer said. */
  private owners = new Map<string, number>();
  private remote = new Map<number, MediaStream>();
  private preview: MediaStream | null = null;
  private readonly videoSender: RTCRtpSender;
  /** Candidates that came before their connection's remote description, applied right after it. */
  private readonly early: Record<GroupCallPeer, Array<GroupCallCandidate | null>> = { publisher: [], subscriber: [] };
  private readonly stopFollowing: () => void;

  constructor(
    readonly media: BrowserMedia,
    iceServers: RTCIceServer[],
  ) {
    this.publisher = this.connection('publisher', iceServers);
    this.subscriber = this.connection('subscriber', iceServers);
    for (const track of media.stream.getAudioTracks()) this.publisher.addTransceiver(track, { direction: 'sendonly', streams: [media.stream] });
    this.videoSender = this.publisher.addTransceiver(media.videoTrack ?? 'video', { direction: 'sendonly', streams: [media.stream] }).sender;
    this.stopFollowing = media.onVideoChange(() => {
      this.videoSender.replaceTrack(media.videoTrack).catch(() => undefined);
    });
    this.subscriber.ontrack = () => this.rebuildRemote();
    onGroupElementsBound(() => this.render());
    this.render();
  }

  private connection(target: GroupCallPeer, iceServers: RTCIceServer[]): RTCPeerConnection {
    const pc = new RTCPeerConnection({ iceServers });
    pc.onicecandidate = (e) => this.emit({ type: 'candidate', target, candidate: toCandidate(e.candidate) });
    pc.onconnectionstatechange = () => this.emit({ type: 'state', target, state: pc.connectionState });
    return pc;
  }

  private emit(event: GroupSessionEvent): void {
    this.listeners.forEach((listener) => listener(event));
  }

  /** One stream per remote participant, from the subscriber's live receivers. */
  private rebuildRemote(): void {
    const tracks = new Map<number, MediaStreamTrack[]>();
    for (const transceiver of this.subscriber.getTransceivers()) {
      const owner = transceiver.mid === null ? undefined : this.owners.get(transceiver.mid);
      if (owner === undefined || transceiver.currentDirection === 'inactive' || transceiver.currentDirection === 'stopped') continue;
      tracks.set(owner, [...(tracks.get(owner) ?? []), transceiver.receiver.track]);
    }
    const next = new Map<number, MediaStream>();
    for (const [userId, list] of tracks) {
      const kept = this.remote.get(userId);
      const same = kept && kept.getTracks().length === list.length && list.every((t) => kept.getTracks().includes(t));
      next.set(userId, same ? kept : new MediaStream(list));
    }
    this.remote = next;
    this.render();
  }

  render(): void {
    const video = this.media.videoTrack;
    if ((this.preview?.getVideoTracks()[0] ?? null) !== video) this.preview = video ? new MediaStream([video]) : null;
    for (const [key, element] of boundGroupVideos()) setSource(element, key === 'me' ? this.preview : (this.remote.get(key) ?? null));
    for (const [userId, element] of boundGroupAudios()) setSource(element, this.remote.get(userId) ?? null);
  }

  async publishOffer(): Promise<string> {
    const offer = await this.publisher.createOffer();
    await this.publisher.setLocalDescription(offer);
    return this.publisher.localDescription?.sdp ?? offer.sdp ?? '';
  }

  async acceptPublishAnswer(sdp: string): Promise<void> {
    await this.publisher.setRemoteDescription({ type: 'answer', sdp });
    await this.flushEarly('publisher');
  }

  private async flushEarly(target: GroupCallPeer): Promise<void> {
    const pc = target === 'publisher' ? this.publisher : this.subscriber;
    for (const candidate of this.early[target].splice(0)) await pc.addIceCandidate(candidate ?? undefined);
  }

  async acceptSubscribeOffer(sdp: string, streams: GroupCallStream[]): Promise<string> {
    this.owners = new Map(streams.map((stream) => [stream.mid, stream.userId]));
    await this.subscriber.setRemoteDescription({ type: 'offer', sdp });
    const answer = await this.subscriber.createAnswer();
    await this.subscriber.setLocalDescription(answer);
    await this.flushEarly('subscriber');
    this.rebuildRemote();
    return this.subscriber.localDescription?.sdp ?? answer.sdp ?? '';
  }

  async addCandidate(target: GroupCallPeer, candidate: GroupCallCandidate | null): Promise<void> {
    const pc = target === 'publisher' ? this.publisher : this.subscriber;
    // Before its remote description a connection cannot take candidates: they wait for it.
    if (!pc.remoteDescription) this.early[target].push(candidate);
    else await pc.addIceCandidate(candidate ?? undefined);
  }

  onEvent(listener: (event: GroupSessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async audioLevels(): Promise<Array<{ userId: number; level: number }>> {
    const levels: Array<{ userId: number; level: number }> = [];
    const report = await this.subscriber.getStats();
    report.forEach((stats: { type?: string; kind?: string; mid?: string; audioLevel?: number }) => {
      if (stats.type !== 'inbound-rtp' || stats.kind !== 'audio' || stats.mid === undefined) return;
      const userId = this.owners.get(stats.mid);
      if (userId !== undefined) levels.push({ userId, level: stats.audioLevel ?? 0 });
    });
    return levels;
  }

  close(): void {
    this.stopFollowing();
    this.listeners.clear();
    for (const pc of [this.publisher, this.subscriber]) {
      pc.onicecandidate = pc.onconnectionstatechange = pc.ontrack = null;
      pc.close();
    }
    this.media.stop();
    this.remote = new Map();
    this.preview = null;
    onGroupElementsBound(() => undefined);
    for (const element of [...boundGroupVideos().values(), ...boundGroupAudios().values()]) setSource(element, null);
  }
}
