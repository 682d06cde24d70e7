import { expect } from 'chai';
import { decode, nestsDeeperThan, PayloadError } from './payloads';

describe('decoding call signals', () => {
  it('refuses an sdp nested 5000 deep with a PayloadError, without overflowing the stack', () => {
    const body = `{"targetUserId":2,"sdp":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(() => decode.sdp(body)).to.throw(PayloadError, 'sdp is nested too deeply');
    const candidate = `{"targetUserId":2,"candidate":{"a":${'{"b":'.repeat(3000)}1${'}'.repeat(3000)}}}`;
    expect(() => decode.iceCandidate(candidate)).to.throw(PayloadError, 'candidate is nested too deeply');
  });

  it('takes a real offer and candidate as they are', () => {
    const sdp = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };
    expect(decode.sdp(JSON.stringify({ targetUserId: 2, sdp })).sdp).to.deep.equal(sdp);
    const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    expect(decode.iceCandidate(JSON.stringify({ targetUserId: 2, candidate })).candidate).to.deep.equal(candidate);
  });

  it('measures nesting of objects and arrays, not of scalars', () => {
    expect(nestsDeeperThan('text', 0)).to.equal(false);
    expect(nestsDeeperThan({ a: { b: 1 } }, 2)).to.equal(false);
    expect(nestsDeeperThan({ a: { b: {} } }, 2)).to.equal(true);
    expect(nestsDeeperThan([[[]]], 2)).to.equal(true);
  });
});

describe('decoding our call payloads', () => {
  it('takes an initiate without media as audio, and refuses any media but audio or video', () => {
    expect(decode.callInitiate('{"targetUserId":2}')).to.deep.equal({ targetUserId: 2, userId: undefined, media: 'audio' });
    expect(decode.callInitiate('{"targetUserId":2,"media":"video"}')).to.include({ media: 'video' });
    expect(() => decode.callInitiate('{"targetUserId":2,"media":"smell"}')).to.throw(PayloadError, 'media must be one of audio video');
    // null is absent, as for every optional field of a payload.
    expect(decode.callInitiate('{"targetUserId":2,"media":null}')).to.include({ media: 'audio' });
    expect(() => decode.callInitiate('{"targetUserId":2,"media":"VIDEO"}')).to.throw(PayloadError, 'media');
  });

  it('needs the three flags of a media state as booleans', () => {
    expect(decode.mediaState('{"targetUserId":2,"muted":true,"camera":false,"screen":false}')).to.deep.equal({ targetUserId: 2, muted: true, camera: false, screen: false });
    expect(() => decode.mediaState('{"targetUserId":2,"muted":1,"camera":false,"screen":false}')).to.throw(PayloadError, 'muted must be true or false');
    expect(() => decode.mediaState('{"targetUserId":2,"muted":true,"camera":false}')).to.throw(PayloadError, 'screen');
  });
});

describe('decoding reads and typing', () => {
  it('needs a room and a positive seq to read up to', () => {
    expect(decode.read('{"chatRoomId":"3","seq":12}')).to.deep.equal({ chatRoomId: 3, seq: 12 });
    expect(() => decode.read('{"chatRoomId":3,"seq":0}')).to.throw(PayloadError, 'seq must be a positive integer');
    expect(() => decode.read('{"chatRoomId":3}')).to.throw(PayloadError, 'seq');
    expect(decode.typing('{"chatRoomId":3}')).to.deep.equal({ chatRoomId: 3 });
    expect(() => decode.typing('[]')).to.throw(PayloadError);
  });
});
