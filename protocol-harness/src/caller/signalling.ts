// Which signalling message applies in which RTCPeerConnection state (SPEC.md §4 Call), and how
// the wire's loosely typed sdp and candidate fields become WebRTC values. The browser client
// sends the RTCSessionDescriptionInit object and RTCIceCandidate.toJSON(); the bare SDP or
// candidate string is accepted too.

export const canApplyOffer = (state: RTCSignalingState): boolean => state === 'stable' || state === 'have-local-offer';
export const canApplyAnswer = (state: RTCSignalingState): boolean => state === 'have-local-offer';

export function toSessionDescription(sdp: unknown, type: 'offer' | 'answer'): RTCSessionDescriptionInit | null {
  if (typeof sdp === 'string') return sdp ? { type, sdp } : null;
  if (typeof sdp !== 'object' || sdp === null) return null;
  const o = sdp as { type?: unknown; sdp?: unknown };
  if (typeof o.sdp !== 'string' || (o.type !== undefined && o.type !== type)) return null;
  return { type, sdp: o.sdp };
}

export function toIceCandidate(candidate: unknown): RTCIceCandidateInit | null {
  if (typeof candidate === 'string') return { candidate, sdpMid: '0', sdpMLineIndex: 0 };
  if (typeof candidate !== 'object' || candidate === null) return null;
  const c = candidate as Record<string, unknown>;
  if (typeof c.candidate !== 'string') return null;
  return {
    candidate: c.candidate,
    sdpMid: typeof c.sdpMid === 'string' ? c.sdpMid : null,
    sdpMLineIndex: typeof c.sdpMLineIndex === 'number' ? c.sdpMLineIndex : null,
  };
}
