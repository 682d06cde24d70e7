import { expect } from 'chai';
import { canApplyAnswer, canApplyOffer, toIceCandidate, toSessionDescription } from '../../../src/caller/signalling';

describe('signalling guards', () => {
  it('apply an offer only in stable or have-local-offer', () => {
    const states: RTCSignalingState[] = ['stable', 'have-local-offer', 'have-remote-offer', 'have-local-pranswer', 'have-remote-pranswer', 'closed'];
    expect(states.filter(canApplyOffer)).to.deep.equal(['stable', 'have-local-offer']);
  });

  it('apply an answer only in have-local-offer', () => {
    const states: RTCSignalingState[] = ['stable', 'have-local-offer', 'have-remote-offer', 'closed'];
    expect(states.filter(canApplyAnswer)).to.deep.equal(['have-local-offer']);
  });
});

describe('wire values to WebRTC values', () => {
  it('read a session description object or bare SDP text', () => {
    expect(toSessionDescription({ type: 'offer', sdp: 'v=0' }, 'offer')).to.deep.equal({ type: 'offer', sdp: 'v=0' });
    expect(toSessionDescription('v=0', 'answer')).to.deep.equal({ type: 'answer', sdp: 'v=0' });
  });

  it('refuse a description of the wrong type or without SDP', () => {
    expect(toSessionDescription({ type: 'answer', sdp: 'v=0' }, 'offer')).to.equal(null);
    expect(toSessionDescription({ type: 'offer' }, 'offer')).to.equal(null);
    expect(toSessionDescription('', 'offer')).to.equal(null);
    expect(toSessionDescription(42, 'offer')).to.equal(null);
  });

  it('read a candidate object or bare candidate text, and refuse anything else', () => {
    expect(toIceCandidate({ candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 })).to.deep.equal({ candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 });
    expect(toIceCandidate('candidate:1')).to.deep.equal({ candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 });
    expect(toIceCandidate({ sdpMid: '0' })).to.equal(null);
    expect(toIceCandidate(null)).to.equal(null);
  });
});
