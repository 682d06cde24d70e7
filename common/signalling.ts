// Which signalling message applies in which RTCPeerConnection signalling state (docs/spec.md §4 Call),
// and how the wire's loosely typed sdp and candidate fields become WebRTC values. Shared by the
// browser client's call saga and the protocol harness's headless caller, so both apply the same
// rule. The browser sends the RTCSessionDescriptionInit object and RTCIceCandidate.toJSON(); the
// bare SDP or candidate string is accepted too. Pure: no RTCPeerConnection is touched here.
// common/ runs without the DOM's types (the server has none), so the WebRTC shapes it uses are
// declared here, structurally the same as the DOM's RTC*Init dictionaries.

/** SignalingState. */
export type SignalingState = 'stable' | 'have-local-offer' | 'have-remote-offer' | 'have-local-pranswer' | 'have-remote-pranswer' | 'closed';

/** RTCSessionDescriptionInit, as this contract produces it. */
export interface SessionDescriptionInit {
  type: 'offer' | 'answer';
  sdp: string;
}

/** RTCIceCandidateInit. */
export interface IceCandidateInit {
  candidate?: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

/** An offer applies only in the stable or have-local-offer signalling state. */
export function canApplyOffer(state: SignalingState): boolean {
  return state === 'stable' || state === 'have-local-offer';
}

/** An answer applies only in the have-local-offer signalling state. */
export function canApplyAnswer(state: SignalingState): boolean {
  return state === 'have-local-offer';
}

/**
 * The wire carries a session description either as the RTCSessionDescriptionInit object or as
 * the bare SDP text; both are accepted, anything else (or one of the other type) is refused (null).
 */
export function toSessionDescription(sdp: unknown, type: 'offer' | 'answer'): SessionDescriptionInit | null {
  if (typeof sdp === 'string') return sdp ? { type, sdp: withMatchingAddressTypes(sdp) } : null;
  if (typeof sdp !== 'object' || sdp === null) return null;
  const o = sdp as { type?: unknown; sdp?: unknown };
  if (typeof o.sdp !== 'string' || (o.type !== undefined && o.type !== type)) return null;
  return { type, sdp: withMatchingAddressTypes(o.sdp) };
}

/**
 * libwebrtc sometimes writes an IPv6 address into a `c=IN IP4` (or `a=rtcp:… IN IP4`) line, and
 * then refuses that very SDP on the other side ("The address type is mismatching"), failing the
 * call. The address is what ICE uses; only its stated type is wrong, so the type is corrected to
 * match the address, in both directions.
 */
export function withMatchingAddressTypes(sdp: string): string {
  return sdp.replace(/^(c=IN |a=rtcp:\d+ IN )(IP4|IP6) ([^\s]+)(\r?)$/gm, (line, prefix: string, stated: string, address: string, cr: string) => {
    const actual = address.includes(':') ? 'IP6' : 'IP4';
    return actual === stated ? line : `${prefix}${actual} ${address}${cr}`;
  });
}

/**
 * A remote candidate as RTCIceCandidateInit, or null when the payload is not one. Missing
 * optional fields become null, the WebRTC default; a bare candidate string belongs to the
 * first (only) media section.
 */
export function toIceCandidate(candidate: unknown): IceCandidateInit | null {
  if (typeof candidate === 'string') return { candidate, sdpMid: '0', sdpMLineIndex: 0 };
  if (typeof candidate !== 'object' || candidate === null) return null;
  const c = candidate as Record<string, unknown>;
  if (typeof c.candidate !== 'string') return null;
  return {
    candidate: c.candidate,
    sdpMid: typeof c.sdpMid === 'string' ? c.sdpMid : null,
    sdpMLineIndex: typeof c.sdpMLineIndex === 'number' ? c.sdpMLineIndex : null,
    usernameFragment: typeof c.usernameFragment === 'string' ? c.usernameFragment : null,
  };
}
