// The harness's one door to @roamhq/wrtc's native objects. The library can crash the whole
// process (SIGSEGV) when the garbage collector finalizes them (RTCPeerConnection's destructor
// among others: WonderInventions/node-webrtc#35); CI once saw the harness tier die so, between
// two suites. A run makes a bounded number of calls, and a closed connection kept costs about
// 0.1 MB (360 kept: 249 MB RSS against 213 MB), so every native object made here is kept until
// the process exits: none is finalized while the harness runs.
import wrtc from 'wrtc';

const keptUntilExit: object[] = [];

function kept<T extends object>(made: T): T {
  keptUntilExit.push(made);
  return made;
}

type PeerConfig = ConstructorParameters<typeof wrtc.RTCPeerConnection>[0];
type Track = ConstructorParameters<typeof wrtc.nonstandard.RTCAudioSink>[0];

export const newPeerConnection = (config: PeerConfig) => kept(new wrtc.RTCPeerConnection(config));
export const newAudioSource = () => kept(new wrtc.nonstandard.RTCAudioSource());
export const newVideoSource = () => kept(new wrtc.nonstandard.RTCVideoSource());
export const newAudioSink = (track: Track) => kept(new wrtc.nonstandard.RTCAudioSink(track));
export const newVideoSink = (track: Track) => kept(new wrtc.nonstandard.RTCVideoSink(track));
