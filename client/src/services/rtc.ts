// The browser's WebRTC and microphone, behind a small interface the call saga reaches through
// its context (docs/architecture.md §5): tests hand the saga a fake, the app hands it this.
// RTCPeerConnection and MediaStream are not serialisable, so they live here and never in Redux.

/** A granted microphone. Stopping it ends its tracks (the browser's recording light goes off). */
export interface Microphone {
  /** Mute: the tracks stay in the call but send silence while disabled. */
  setMuted(muted: boolean): void;
  stop(): void;
}

export type PeerEvent =
  | { type: 'candidate'; candidate: RTCIceCandidateInit }
  | { type: 'connectionState'; state: RTCPeerConnectionState }
  | { type: 'iceConnectionState'; state: RTCIceConnectionState };

/** One call's peer connection, with the offer/answer steps the call saga needs. */
export interface Peer {
  readonly signalingState: RTCSignalingState;
  readonly hasRemoteDescription: boolean;
  /** Creates an offer and sets it as the local description. */
  createOffer(): Promise<RTCSessionDescriptionInit>;
  /** Creates an answer to the applied offer and sets it as the local description. */
  createAnswer(): Promise<RTCSessionDescriptionInit>;
  setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void>;
  addIceCandidate(candidate: RTCIceCandidateInit): Promise<void>;
  /** Local candidates and state changes; returns the unsubscribe function. */
  onEvent(listener: (event: PeerEvent) => void): () => void;
  close(): void;
}

export interface AudioElements {
  local: HTMLAudioElement | null;
  remote: HTMLAudioElement | null;
}

export interface RtcService {
  /** Asks for the microphone; rejects when permission is denied or there is none. */
  openMicrophone(): Promise<Microphone>;
  createPeer(iceServers: RTCIceServer[], microphone: Microphone): Peer;
}

// The page has one pair of call audio elements, rendered by a component that cannot reach the
// saga context; it hands them over here and the browser service plays its streams through them.
let audioElements: AudioElements = { local: null, remote: null };
let renderAudio: () => void = () => undefined;

/** The two hidden audio elements of the call UI: the local one (muted) and the remote one. */
export function bindCallAudio(elements: AudioElements): void {
  audioElements = elements;
  renderAudio();
}

class BrowserMicrophone implements Microphone {
  constructor(readonly stream: MediaStream, private readonly onStop: () => void) {}

  setMuted(muted: boolean): void {
    for (const track of this.stream.getAudioTracks()) track.enabled = !muted;
  }

  stop(): void {
    for (const track of this.stream.getTracks()) track.stop();
    this.onStop();
  }
}

export function createBrowserRtc(): RtcService {
  let localStream: MediaStream | null = null;
  let remoteStream: MediaStream | null = null;

  function render(): void {
    const elements = audioElements;
    if (elements.local && elements.local.srcObject !== localStream) elements.local.srcObject = localStream;
    if (elements.remote && elements.remote.srcObject !== remoteStream) {
      elements.remote.srcObject = remoteStream;
      // autoplay covers a fresh element; an element that already played needs a nudge. A refusal
      // (no user gesture yet) is harmless: the user's click on call or accept counts as one.
      if (remoteStream) elements.remote.play().catch(() => undefined);
    }
  }

  renderAudio = render;

  return {
    async openMicrophone() {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('this browser offers no microphone access');
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
      localStream = stream;
      render();
      return new BrowserMicrophone(stream, () => {
        if (localStream === stream) localStream = null;
        render();
      });
    },

    createPeer(iceServers, microphone) {
      if (!(microphone instanceof BrowserMicrophone)) throw new Error('microphone was not opened by this service');
      const pc = new RTCPeerConnection({ iceServers });
      for (const track of microphone.stream.getAudioTracks()) pc.addTrack(track, microphone.stream);
      const listeners = new Set<(event: PeerEvent) => void>();
      const emit = (event: PeerEvent) => listeners.forEach((l) => l(event));

      pc.onicecandidate = (e) => {
        // A null candidate marks the end of gathering; there is nothing to send for it.
        if (e.candidate) emit({ type: 'candidate', candidate: e.candidate.toJSON() });
      };
      pc.onconnectionstatechange = () => emit({ type: 'connectionState', state: pc.connectionState });
      pc.oniceconnectionstatechange = () => emit({ type: 'iceConnectionState', state: pc.iceConnectionState });
      pc.ontrack = (e) => {
        remoteStream = e.streams[0] ?? new MediaStream([e.track]);
        render();
      };

      return {
        get signalingState() {
          return pc.signalingState;
        },
        get hasRemoteDescription() {
          return pc.remoteDescription !== null;
        },
        async createOffer() {
          const offer = await pc.createOffer();
          await pc.setLocalDescription(offer);
          return { type: 'offer', sdp: pc.localDescription?.sdp ?? offer.sdp };
        },
        async createAnswer() {
          const answer = await pc.createAnswer();
          await pc.setLocalDescription(answer);
          return { type: 'answer', sdp: pc.localDescription?.sdp ?? answer.sdp };
        },
        setRemoteDescription: (description) => pc.setRemoteDescription(description),
        addIceCandidate: (candidate) => pc.addIceCandidate(candidate),
        onEvent(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        close() {
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
