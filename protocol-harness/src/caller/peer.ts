// One side's WebRTC connection: a wrtc RTCPeerConnection sending a tone (and, with the camera on,
// coded video frames) and measuring what it receives, with the signalling-state guards and
// candidate handling of the browser client:
// an offer only in stable/have-local-offer, an answer only in have-local-offer, remote
// candidates held until the remote description exists, local candidates sent in batches.
import type { IceServer } from '@common/api';
import { canApplyAnswer, canApplyOffer } from '@common/signalling';
import { AudioMeter, type SinkFrame } from './audio-meter';
import { CandidateBatcher } from './candidates';
import { newAudioSink, newAudioSource, newPeerConnection, newVideoSink, newVideoSource } from './native-media';
import { QualityProbe } from './quality-probe';
import { TonePlayer } from './tone';
import { VideoMeter, VideoPlayer, type I420Frame } from './video';

export interface PeerOptions {
  iceServers: IceServer[];
  /** iceTransportPolicy "relay": only TURN-relayed paths. */
  relayOnly: boolean;
  /** The tone this side plays, and the tone it expects to hear from the other side. */
  toneHz: number;
  expectHz: number;
  /** The tag this side's video frames carry, and the tag expected on the other side's. */
  videoTag: number;
  expectVideoTag: number;
  /** The camera is on from the start (a video call, or a call resumed with the camera on). */
  camera: boolean;
  sendCandidate(candidate: RTCIceCandidateInit): void;
  /** Every connectionState change, as it happens. */
  stateChanged?(state: RTCPeerConnectionState): void;
  /** Skipped or failed signalling, for the report. */
  note(message: string): void;
}

/** How long a connected peer's selectedPath() waits for getStats to name the selected pair. */
const SELECTED_PATH_WAIT_MS = 3000;

export interface SelectedPath {
  local: string;
  remote: string;
}

export class CallPeer {
  readonly meter: AudioMeter;
  readonly video: VideoMeter;
  /** performance.now() when the connection first reached connected, and when it failed. */
  connectedAt: number | null = null;
  failedAt: number | null = null;
  /**
   * Candidates of an earlier ICE generation (sent before an ICE restart, or by the connection a
   * resume replaced, still on the wire) name credentials the remote description no longer has:
   * libwebrtc refuses them, and they are of no use, so they are left out, counted.
   */
  staleCandidates = 0;
  /** getStats() once a second from the first "connected" to the close (quality.ts). */
  readonly quality: QualityProbe;
  private readonly pc: RTCPeerConnection;
  private readonly tone: TonePlayer;
  private readonly batcher: CandidateBatcher<RTCIceCandidateInit>;
  private readonly pendingRemote: RTCIceCandidateInit[] = [];
  private sink: { stop(): void } | null = null;
  private videoSink: { stop(): void } | null = null;
  private camera: VideoPlayer | null = null;
  private closed = false;
  private readonly changed = new Set<() => void>();

  constructor(private readonly options: PeerOptions) {
    this.meter = new AudioMeter(options.expectHz);
    this.quality = new QualityProbe(async () => {
      const entries: Record<string, unknown>[] = [];
      (await this.pc.getStats()).forEach((s: Record<string, unknown>) => entries.push(s));
      return entries;
    });
    this.video = new VideoMeter(options.expectVideoTag);
    this.pc = newPeerConnection({
      iceServers: options.iceServers,
      iceTransportPolicy: options.relayOnly ? 'relay' : 'all',
    });
    const source = newAudioSource();
    this.pc.addTrack(source.createTrack());
    this.tone = new TonePlayer(source, options.toneHz);
    this.tone.start();
    if (options.camera) this.startCamera();
    this.batcher = new CandidateBatcher((c) => options.sendCandidate(c));
    this.pc.onicecandidate = (e) => {
      // A null candidate only marks the end of gathering.
      if (e.candidate) this.batcher.add(e.candidate.toJSON());
    };
    this.pc.ontrack = (e) => {
      if (e.track.kind === 'video') {
        this.watch(e.track);
        return;
      }
      if (e.track.kind !== 'audio' || this.sink) return;
      const sink = newAudioSink(e.track);
      sink.ondata = (frame: SinkFrame) => {
        this.meter.push(frame, performance.now());
        this.notify();
      };
      this.sink = sink;
    };
    this.pc.onconnectionstatechange = () => {
      const state = this.pc.connectionState;
      if (state === 'connected') {
        this.connectedAt ??= performance.now();
        if (!this.closed) this.quality.start();
      }
      if (state === 'failed') this.failedAt ??= performance.now();
      this.options.stateChanged?.(state);
      this.notify();
    };
  }

  get connectionState(): RTCPeerConnectionState {
    return this.closed ? 'closed' : this.pc.connectionState;
  }

  /**
   * Turns the camera on: a video track joins the connection (reusing a transceiver the other
   * side's video offer made, if any); the caller then renegotiates. False when it already was on.
   */
  startCamera(): boolean {
    if (this.camera || this.closed) return false;
    const source = newVideoSource();
    this.pc.addTrack(source.createTrack());
    this.camera = new VideoPlayer(source, this.options.videoTag);
    this.camera.start();
    return true;
  }

  /** An offer; with iceRestart, one with new ICE credentials, gathering new candidates (a network change). */
  async createOffer(options: { iceRestart?: boolean } = {}): Promise<RTCSessionDescriptionInit> {
    const offer = await this.pc.createOffer(options);
    await this.pc.setLocalDescription(offer);
    return { type: 'offer', sdp: this.pc.localDescription?.sdp ?? offer.sdp };
  }

  /** Applies a remote offer and returns the answer, or null when the state does not allow it. */
  async acceptOffer(offer: RTCSessionDescriptionInit): Promise<RTCSessionDescriptionInit | null> {
    // A signal that crossed the hang-up on the wire has nothing left to apply to.
    if (this.closed) return null;
    if (!canApplyOffer(this.pc.signalingState)) {
      this.options.note(`offer skipped in signalling state ${this.pc.signalingState}`);
      return null;
    }
    await this.pc.setRemoteDescription(offer);
    await this.drainRemoteCandidates();
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    return { type: 'answer', sdp: this.pc.localDescription?.sdp ?? answer.sdp };
  }

  async acceptAnswer(answer: RTCSessionDescriptionInit): Promise<void> {
    if (this.closed) return;
    if (!canApplyAnswer(this.pc.signalingState)) {
      this.options.note(`answer skipped in signalling state ${this.pc.signalingState}`);
      return;
    }
    await this.pc.setRemoteDescription(answer);
    await this.drainRemoteCandidates();
  }

  /** Early candidates (before the remote description) wait for it. */
  async addRemoteCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    if (this.closed) return;
    if (!this.pc.remoteDescription) {
      this.pendingRemote.push(candidate);
      return;
    }
    await this.addCurrent(candidate);
  }

  private async addCurrent(candidate: RTCIceCandidateInit): Promise<void> {
    const ufrag = candidate.usernameFragment ?? / ufrag (\S+)/.exec(candidate.candidate ?? '')?.[1] ?? null;
    const current = [...(this.pc.remoteDescription?.sdp ?? '').matchAll(/^a=ice-ufrag:(\S+)/gm)].map((m) => m[1]);
    if (ufrag !== null && current.length > 0 && !current.includes(ufrag)) {
      this.staleCandidates++;
      return;
    }
    await this.pc.addIceCandidate(candidate);
  }

  /** The ICE username fragment of the local description: an ICE restart changes it. */
  get localIceUfrag(): string | null {
    return /^a=ice-ufrag:(\S+)/m.exec(this.pc.localDescription?.sdp ?? '')?.[1] ?? null;
  }

  /** Resolves when the condition holds, re-checked on every state change, audio and video frame. */
  until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.changed.delete(check);
        resolve();
      };
      this.changed.add(check);
    });
  }

  /**
   * The candidate types (host, srflx, relay) of the selected path, from getStats: the transport's
   * selectedCandidatePairId, else a nominated pair that succeeded. Right after "connected" on a
   * loaded machine (forty connections in one process, `harness call --pairs`) the stats can lag
   * the state for a moment, so a connected peer asks again for up to SELECTED_PATH_WAIT_MS.
   */
  async selectedPath(): Promise<SelectedPath | null> {
    const until = performance.now() + SELECTED_PATH_WAIT_MS;
    for (;;) {
      const path = await this.readSelectedPath();
      if (path || this.connectionState !== 'connected' || performance.now() >= until) return path;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async readSelectedPath(): Promise<SelectedPath | null> {
    const stats = await this.pc.getStats();
    const byId = new Map<string, Record<string, unknown>>();
    stats.forEach((s: Record<string, unknown>) => byId.set(String(s.id), s));
    const typeOf = (c: { candidateType?: unknown } | undefined) => (typeof c?.candidateType === 'string' ? c.candidateType : 'unknown');
    const pathOf = (pair: Record<string, unknown>) => ({ local: typeOf(byId.get(String(pair.localCandidateId))), remote: typeOf(byId.get(String(pair.remoteCandidateId))) });
    for (const s of byId.values()) {
      const pair = s.type === 'transport' && typeof s.selectedCandidatePairId === 'string' ? byId.get(s.selectedCandidatePairId) : undefined;
      if (pair) return pathOf(pair);
    }
    for (const s of byId.values()) {
      if (s.type === 'candidate-pair' && (s.selected === true || (s.nominated === true && s.state === 'succeeded'))) return pathOf(s);
    }
    return null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.quality.stop();
    this.tone.stop();
    this.camera?.stop();
    this.batcher.stop();
    this.sink?.stop();
    this.videoSink?.stop();
    this.pc.close();
    this.notify();
  }

  /** The other side's video, read frame by frame; one sink for the call (the track outlives renegotiations). */
  private watch(track: MediaStreamTrack): void {
    if (this.videoSink) return;
    const sink = newVideoSink(track);
    sink.onframe = ({ frame }: { frame: I420Frame }) => {
      this.video.push(frame, performance.now());
      this.notify();
    };
    this.videoSink = sink;
  }

  private async drainRemoteCandidates(): Promise<void> {
    for (const candidate of this.pendingRemote.splice(0)) await this.addCurrent(candidate);
  }

  private notify(): void {
    for (const check of [...this.changed]) check();
  }
}
