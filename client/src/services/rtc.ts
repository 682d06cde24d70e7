// The browser's WebRTC, microphone, camera and screen capture, behind a small interface the call
// saga reaches through its context (docs/architecture.md §5): tests hand the saga a fake, the app
// hands it this. RTCPeerConnection and MediaStream are not serialisable, so they live here and
// never in Redux.
//
// Video (docs/architecture.md §5 "Calls"): the offerer puts one video transceiver in the session
// from its first offer, even for a voice call, and the answerer takes it up. Turning the camera on
// or off, switching cameras, upgrading a voice call and sharing the screen then only replace the
// track it sends (RTCRtpSender.replaceTrack). A session without video (the original client's or
// the harness's offer) is renegotiated over offer/answer when video starts; ICE restarts and
// resumes renegotiate too.
import { boundCallElements, onCallElementsBound } from './callElements';

/** This side's media for one call: the microphone always, the camera or the screen when asked. */
export interface LocalMedia {
  /** The camera is on (sent unless the screen is shared). */
  readonly cameraOn: boolean;
  /** The screen is shared. */
  readonly screenOn: boolean;
  /** Mute: the tracks stay in the call but send silence while disabled. */
  setMuted(muted: boolean): void;
  /** Opens the camera (on) or stops it (off). Rejects when there is no camera or it is refused. */
  setCamera(on: boolean): Promise<void>;
  /** How many cameras the device has (switching is offered from two on). */
  cameraCount(): Promise<number>;
  /** Moves to the next camera while the camera is on. */
  switchCamera(): Promise<void>;
  /** getDisplayMedia: the screen replaces the outgoing video until stopped or ended in the browser's UI. */
  startScreenShare(onEnded: () => void): Promise<void>;
  stopScreenShare(): void;
  /** Stopping ends every track (the browser's recording light goes off). */
  stop(): void;
}

/** The media of a voice call (older name). */
export type Microphone = LocalMedia;

export type PeerEvent =
  | { type: 'candidate'; candidate: RTCIceCandidateInit }
  | { type: 'connectionState'; state: RTCPeerConnectionState }
  | { type: 'iceConnectionState'; state: RTCIceConnectionState }
  /** The session must be renegotiated (video added to a session that had none). */
  | { type: 'negotiationNeeded' };

/** One call's peer connection, with the offer/answer steps the call saga needs. */
export interface Peer {
  readonly signalingState: RTCSignalingState;
  readonly hasRemoteDescription: boolean;
  /** Creates an offer (an ICE restart when asked) and sets it as the local description. */
  createOffer(options?: { iceRestart?: boolean }): Promise<RTCSessionDescriptionInit>;
  /** Creates an answer to the applied offer and sets it as the local description. */
  createAnswer(): Promise<RTCSessionDescriptionInit>;
  setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void>;
  addIceCandidate(candidate: RTCIceCandidateInit): Promise<void>;
  /** Local candidates and state changes; returns the unsubscribe function. */
  onEvent(listener: (event: PeerEvent) => void): () => void;
  close(): void;
}

export type { AudioElements, MediaElements } from './callElements';

export interface RtcService {
  /** Asks for the microphone, and the camera too for a video call; rejects when the microphone is refused. */
  openMedia(video: boolean): Promise<LocalMedia>;
  createPeer(iceServers: RTCIceServer[], media: LocalMedia): Peer;
}

function setSource(element: HTMLMediaElement | null | undefined, stream: MediaStream | null): void {
  if (!element || element.srcObject === stream) return;
  element.srcObject = stream;
  // autoplay covers a fresh element; one that already played needs a nudge. A refusal (no user
  // gesture yet) is harmless: the user's click on call or accept counts as one.
  if (stream) element.play().catch(() => undefined);
}

export class BrowserMedia implements LocalMedia {
  camera: MediaStreamTrack | null = null;
  screen: MediaStreamTrack | null = null;
  private cameraIndex = 0;
  private readonly videoListeners = new Set<() => void>();

  constructor(
    readonly stream: MediaStream,
    private readonly onChange: () => void,
    private readonly onStop: () => void,
  ) {}

  get cameraOn(): boolean {
    return this.camera !== null;
  }

  get screenOn(): boolean {
    return this.screen !== null;
  }

  /** The video sent now: the screen while it is shared, else the camera, else none. */
  get videoTrack(): MediaStreamTrack | null {
    return this.screen ?? this.camera;
  }

  onVideoChange(listener: () => void): () => void {
    this.videoListeners.add(listener);
    return () => this.videoListeners.delete(listener);
  }

  private changed(): void {
    this.videoListeners.forEach((listener) => listener());
    this.onChange();
  }

  setMuted(muted: boolean): void {
    for (const track of this.stream.getAudioTracks()) track.enabled = !muted;
  }

  async setCamera(on: boolean): Promise<void> {
    if (!on) {
      this.camera?.stop();
      this.camera = null;
      this.changed();
      return;
    }
    if (this.camera) return;
    this.camera = await openCamera(this.cameraIndex);
    this.changed();
  }

  async cameraCount(): Promise<number> {
    return (await cameras()).length;
  }

  async switchCamera(): Promise<void> {
    if (!this.camera) return;
    const count = await this.cameraCount();
    if (count < 2) return;
    this.cameraIndex = (this.cameraIndex + 1) % count;
    const next = await openCamera(this.cameraIndex);
    this.camera.stop();
    this.camera = next;
    this.changed();
  }

  async startScreenShare(onEnded: () => void): Promise<void> {
    if (!navigator.mediaDevices?.getDisplayMedia) throw new Error('this browser cannot share the screen');
    const display = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
    const track = display.getVideoTracks()[0];
    if (!track) throw new Error('the screen capture has no video');
    this.screen?.stop();
    this.screen = track;
    // Ended from the browser's own "stop sharing" bar: the camera (or nothing) goes out again.
    track.addEventListener('ended', () => {
      if (this.screen !== track) return;
      this.screen = null;
      this.changed();
      onEnded();
    });
    this.changed();
  }

  stopScreenShare(): void {
    if (!this.screen) return;
    this.screen.stop();
    this.screen = null;
    this.changed();
  }

  stop(): void {
    for (const track of this.stream.getTracks()) track.stop();
    this.camera?.stop();
    this.screen?.stop();
    this.camera = this.screen = null;
    this.videoListeners.clear();
    this.onStop();
  }
}

async function cameras(): Promise<MediaDeviceInfo[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  return (await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === 'videoinput');
}

async function openCamera(index: number): Promise<MediaStreamTrack> {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('this browser offers no camera access');
  const list = await cameras();
  const deviceId = list[index]?.deviceId;
  const stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: deviceId ? { deviceId: { exact: deviceId } } : true });
  const track = stream.getVideoTracks()[0];
  if (!track) throw new Error('the camera gave no video');
  return track;
}

/**
 * The microphone (and the camera when asked; a refused camera leaves voice only) as LocalMedia.
 * onChange runs when its video changes, onStop when it is stopped.
 */
export async function openBrowserMedia(video: boolean, onChange: () => void, onStop: () => void): Promise<BrowserMedia> {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('this browser offers no microphone access');
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
  const opened = new BrowserMedia(stream, onChange, onStop);
  if (video) await opened.setCamera(true).catch(() => undefined);
  return opened;
}

export function createBrowserRtc(): RtcService {
  let media: BrowserMedia | null = null;
  let remoteStream: MediaStream | null = null;
  let localPreview: MediaStream | null = null;

  function render(): void {
    const elements = boundCallElements();
    const video = media?.videoTrack ?? null;
    if ((localPreview?.getVideoTracks()[0] ?? null) !== video) localPreview = video ? new MediaStream([video]) : null;
    setSource(elements.local, media?.stream ?? null);
    setSource(elements.remote, remoteStream);
    setSource(elements.remoteVideo, remoteStream);
    setSource(elements.localVideo, localPreview);
    setSource(elements.thumbnail, remoteStream);
  }

  onCallElementsBound(render);

  return {
    async openMedia(video) {
      // A refused camera leaves a voice call: the user can try the camera again from the call screen.
      const opened = await openBrowserMedia(video, render, () => {
        if (media === opened) media = null;
        render();
      });
      media = opened;
      render();
      return opened;
    },

    createPeer(iceServers, local) {
      if (!(local instanceof BrowserMedia)) throw new Error('media was not opened by this service');
      const listeners = new Set<(event: PeerEvent) => void>();
      const emit = (event: PeerEvent) => listeners.forEach((l) => l(event));
      const pc = new RTCPeerConnection({ iceServers });
      for (const track of local.stream.getAudioTracks()) pc.addTrack(track, local.stream);
      const videoTransceiver = () => pc.getTransceivers().find((t) => t.receiver.track.kind === 'video' && t.currentDirection !== 'stopped') ?? null;
      /** The video transceiver, made sendrecv and sending this side's current video (or nothing yet). */
      const sendVideo = (transceiver: RTCRtpTransceiver): void => {
        if (transceiver.direction !== 'sendrecv') transceiver.direction = 'sendrecv';
        if (transceiver.sender.track !== local.videoTrack) transceiver.sender.replaceTrack(local.videoTrack).catch(() => undefined);
        transceiver.sender.setStreams?.(local.stream);
      };
      const stopFollowing = local.onVideoChange(() => {
        const transceiver = videoTransceiver();
        if (transceiver) sendVideo(transceiver);
        else {
          // The session has no video yet (the peer offered none): add it and renegotiate.
          pc.addTransceiver(local.videoTrack ?? 'video', { direction: 'sendrecv', streams: [local.stream] });
          emit({ type: 'negotiationNeeded' });
        }
      });
      const remote = new MediaStream();
      let open = true;

      pc.onicecandidate = (e) => {
        // A null candidate marks the end of gathering; there is nothing to send for it.
        if (e.candidate) emit({ type: 'candidate', candidate: e.candidate.toJSON() });
      };
      pc.onconnectionstatechange = () => emit({ type: 'connectionState', state: pc.connectionState });
      pc.oniceconnectionstatechange = () => emit({ type: 'iceConnectionState', state: pc.iceConnectionState });
      pc.ontrack = (e) => {
        // One stream for the peer's audio and video, whatever streams the peer grouped them in.
        if (!remote.getTracks().includes(e.track)) remote.addTrack(e.track);
        if (!open) return;
        // A new stream object, so every element picks up a track added to one already playing.
        remoteStream = new MediaStream(remote.getTracks());
        render();
      };
      render();

      return {
        get signalingState() {
          return pc.signalingState;
        },
        get hasRemoteDescription() {
          return pc.remoteDescription !== null;
        },
        async createOffer(options) {
          // The offerer puts video in the session from the first offer, so video needs no new round later.
          const transceiver = videoTransceiver();
          if (transceiver) sendVideo(transceiver);
          else pc.addTransceiver(local.videoTrack ?? 'video', { direction: 'sendrecv', streams: [local.stream] });
          const offer = await pc.createOffer(options?.iceRestart ? { iceRestart: true } : undefined);
          await pc.setLocalDescription(offer);
          return { type: 'offer', sdp: pc.localDescription?.sdp ?? offer.sdp };
        },
        async createAnswer() {
          const answer = await pc.createAnswer();
          await pc.setLocalDescription(answer);
          return { type: 'answer', sdp: pc.localDescription?.sdp ?? answer.sdp };
        },
        async setRemoteDescription(description) {
          await pc.setRemoteDescription(description);
          // The answerer takes up the video the offer brought (a transceiver of its own would not match it).
          const transceiver = description.type === 'offer' ? videoTransceiver() : null;
          if (transceiver) sendVideo(transceiver);
        },
        addIceCandidate: (candidate) => pc.addIceCandidate(candidate),
        onEvent(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        close() {
          open = false;
          stopFollowing();
          listeners.clear();
          pc.onicecandidate = pc.onconnectionstatechange = pc.oniceconnectionstatechange = pc.ontrack = null;
          pc.close();
          remoteStream = null;
          render();
        },
      };
    },
  };
}
