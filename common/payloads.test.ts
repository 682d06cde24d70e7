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

describe('decoding forwards and delete for me (issue 27)', () => {
  it('takes up to 10 distinct rooms (a room named twice counts once), and refuses more, none or malformed ids', () => {
    const eleven = JSON.stringify({ messageId: 4, chatRoomIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] });
    expect(decode.forwardMessage('{"messageId":"4","chatRoomIds":[2,"3",2],"clientMsgId":"c-1"}')).to.deep.equal({ messageId: 4, chatRoomIds: [2, 3], clientMsgId: 'c-1' });
    expect(decode.forwardMessage(JSON.stringify({ messageId: 4, chatRoomIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10] })).chatRoomIds).to.have.length(10);
    expect(() => decode.forwardMessage(eleven)).to.throw(PayloadError, 'at most 10 chat rooms');
    expect(() => decode.forwardMessage('{"messageId":4,"chatRoomIds":[]}')).to.throw(PayloadError, 'chatRoomIds');
    expect(() => decode.forwardMessage('{"messageId":4,"chatRoomIds":[0]}')).to.throw(PayloadError, 'chatRoomIds');
    expect(() => decode.forwardMessage('{"chatRoomIds":[1]}')).to.throw(PayloadError, 'messageId');
    expect(decode.hideMessage('{"messageId":9}')).to.deep.equal({ messageId: 9 });
    expect(() => decode.hideMessage('{"messageId":-1}')).to.throw(PayloadError, 'messageId');
  });
});
