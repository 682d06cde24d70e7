// One side's WebRTC connection: a wrtc RTCPeerConnection sending a tone and measuring what it
// receives, with the signalling-state guards and candidate handling of the browser client:
// an offer only in stable/have-local-offer, an answer only in have-local-offer, remote
// candidates held until the remote description exists, local candidates sent in batches.
import wrtc from 'wrtc';
import type { IceServer } from '@common/api';
import { canApplyAnswer, canApplyOffer } from '@common/signalling';
import { AudioMeter, type SinkFrame } from './audio-meter';
import { CandidateBatcher } from './candidates';
import { TonePlayer } from './tone';

export interface PeerOptions {
  iceServers: IceServer[];
  /** iceTransportPolicy "relay": only TURN-relayed paths. */
  relayOnly: boolean;
  /** The tone this side plays, and the tone it expects to hear from the other side. */
  toneHz: number;
  expectHz: number;
  sendCandidate(candidate: RTCIceCandidateInit): void;
  /** Skipped or failed signalling, for the report. */
  note(message: string): void;
}

export interface SelectedPath {
  local: string;
  remote: string;
}

export class CallPeer {
  readonly meter: AudioMeter;
  /** performance.now() when the connection first reached connected, and when it failed. */
  connectedAt: number | null = null;
  failedAt: number | null = null;
  private readonly pc: RTCPeerConnection;
  private readonly tone: TonePlayer;
  private readonly batcher: CandidateBatcher<RTCIceCandidateInit>;
  private readonly pendingRemote: RTCIceCandidateInit[] = [];
  private sink: { stop(): void } | null = null;
  private closed = false;
  private readonly changed = new Set<() => void>();

  constructor(private readonly options: PeerOptions) {
    this.meter = new AudioMeter(options.expectHz);
    this.pc = new wrtc.RTCPeerConnection({
      iceServers: options.iceServers,
      iceTransportPolicy: options.relayOnly ? 'relay' : 'all',
    });
    const source = new wrtc.nonstandard.RTCAudioSource();
    this.pc.addTrack(source.createTrack());
    this.tone = new TonePlayer(source, options.toneHz);
    this.tone.start();
    this.batcher = new CandidateBatcher((c) => options.sendCandidate(c));
    this.pc.onicecandidate = (e) => {
      // A null candidate only marks the end of gathering.
      if (e.candidate) this.batcher.add(e.candidate.toJSON());
    };
    this.pc.ontrack = (e) => {
      if (e.track.kind !== 'audio' || this.sink) return;
      const sink = new wrtc.nonstandard.RTCAudioSink(e.track);
      sink.ondata = (frame: SinkFrame) => {
        this.meter.push(frame, performance.now());
        this.notify();
      };
      this.sink = sink;
    };
    this.pc.onconnectionstatechange = () => {
      const state = this.pc.connectionState;
      if (state === 'connected') this.connectedAt ??= performance.now();
      if (state === 'failed') this.failedAt ??= performance.now();
      this.notify();
    };
  }

  get connectionState(): RTCPeerConnectionState {
    return this.closed ? 'closed' : this.pc.connectionState;
  }

  async createOffer(): Promise<RTCSessionDescriptionInit> {
    const offer = await this.pc.createOffer();
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
    await this.pc.addIceCandidate(candidate);
  }

  /** Resolves when the condition holds, re-checked on every state change and audio frame. */
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

  /** The candidate types (host, srflx, relay) of the selected path, from getStats. */
  async selectedPath(): Promise<SelectedPath | null> {
    const stats = await this.pc.getStats();
    const byId = new Map<string, Record<string, unknown>>();
    stats.forEach((s: Record<string, unknown>) => byId.set(String(s.id), s));
    for (const s of byId.values()) {
      const selected = s.type === 'candidate-pair' && (s.selected === true || (s.nominated === true && s.state === 'succeeded'));
      if (!selected) continue;
      const local = byId.get(String(s.localCandidateId));
      const remote = byId.get(String(s.remoteCandidateId));
      const typeOf = (c: { candidateType?: unknown } | undefined) => (typeof c?.candidateType === 'string' ? c.candidateType : 'unknown');
      return { local: typeOf(local), remote: typeOf(remote) };
    }
    return null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.tone.stop();
    this.batcher.stop();
    this.sink?.stop();
    this.pc.close();
    this.notify();
  }

  private async drainRemoteCandidates(): Promise<void> {
    for (const candidate of this.pendingRemote.splice(0)) await this.pc.addIceCandidate(candidate);
  }

  private notify(): void {
    for (const check of [...this.changed]) check();
  }
}
