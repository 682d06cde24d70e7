import { expect } from 'chai';
import { canApplyAnswer, canApplyOffer, toIceCandidate, toSessionDescription, withMatchingAddressTypes, type SignalingState } from './signalling';

const SIGNALLING_STATES: SignalingState[] = ['stable', 'have-local-offer', 'have-remote-offer', 'have-local-pranswer', 'have-remote-pranswer', 'closed'];

describe('signalling guards', () => {
  it('applies an offer only in stable or have-local-offer', () => {
    expect(SIGNALLING_STATES.filter(canApplyOffer)).to.deep.equal(['stable', 'have-local-offer']);
  });

  it('applies an answer only in have-local-offer', () => {
    expect(SIGNALLING_STATES.filter(canApplyAnswer)).to.deep.equal(['have-local-offer']);
  });
});

describe('wire values to WebRTC values', () => {
  it('accepts a session description as an object or bare SDP text', () => {
    expect(toSessionDescription({ type: 'offer', sdp: 'v=0' }, 'offer')).to.deep.equal({ type: 'offer', sdp: 'v=0' });
    expect(toSessionDescription('v=0', 'answer')).to.deep.equal({ type: 'answer', sdp: 'v=0' });
  });

  it('refuses a description of the wrong type, without SDP text, or not a description at all', () => {
    expect(toSessionDescription({ type: 'answer', sdp: 'v=0' }, 'offer')).to.equal(null);
    expect(toSessionDescription({ type: 'offer' }, 'offer')).to.equal(null);
    expect(toSessionDescription({ sdp: 3 }, 'offer')).to.equal(null);
    expect(toSessionDescription('', 'offer')).to.equal(null);
    expect(toSessionDescription(42, 'offer')).to.equal(null);
    expect(toSessionDescription(null, 'offer')).to.equal(null);
  });

  it('accepts an ICE candidate object, filling the fields it lacks with null, or bare candidate text', () => {
    expect(toIceCandidate({ candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 })).to.deep.equal({
      candidate: 'candidate:1',
      sdpMid: '0',
      sdpMLineIndex: 0,
      usernameFragment: null,
    });
    expect(toIceCandidate({ candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'ab12' })).to.deep.include({ usernameFragment: 'ab12' });
    expect(toIceCandidate('candidate:1')).to.deep.equal({ candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 });
  });

  it('refuses anything else as an ICE candidate', () => {
    expect(toIceCandidate({ sdpMid: '0' })).to.equal(null);
    expect(toIceCandidate(42)).to.equal(null);
    expect(toIceCandidate(null)).to.equal(null);
  });

  describe('withMatchingAddressTypes', () => {
    it('states IP6 for an IPv6 address that libwebrtc wrote into an IP4 line, and IP4 the other way round', () => {
      const sdp = 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 fd00::1\r\na=rtcp:9 IN IP4 ::1\r\nc=IN IP6 10.0.0.5\r\n';
      expect(withMatchingAddressTypes(sdp)).to.equal('v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP6 fd00::1\r\na=rtcp:9 IN IP6 ::1\r\nc=IN IP4 10.0.0.5\r\n');
    });

    it('leaves lines whose address type is right as they are, and is applied to every description received', () => {
      const sdp = 'v=0\r\nc=IN IP4 0.0.0.0\r\na=rtcp:9 IN IP4 0.0.0.0\r\nc=IN IP6 ::\r\n';
      expect(withMatchingAddressTypes(sdp)).to.equal(sdp);
      expect(toSessionDescription({ type: 'offer', sdp: 'v=0\r\nc=IN IP4 ::1\r\n' }, 'offer')).to.deep.equal({ type: 'offer', sdp: 'v=0\r\nc=IN IP6 ::1\r\n' });
    });
  });
});

