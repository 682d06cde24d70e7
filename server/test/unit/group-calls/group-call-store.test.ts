// The memory group-call store and the /app/group-call/* decoders: the limit checked where a
// participant is added, the last one out, an end that only its first caller gets, and bodies
// that are refused before any rule runs.
import { expect } from 'chai';
import { PayloadError } from '@common/payloads';
import { decodeGroupCall } from '../../../src/features/group-calls/group-call-payloads';
import { MemoryGroupCallStore, type GroupCallRecord } from '../../../src/features/group-calls/group-call-store';

const call = (over: Partial<GroupCallRecord> = {}): GroupCallRecord => ({
  callId: 'c1', chatRoomId: 7, media: 'audio', startedAtMs: 0, starter: { userId: 1, name: 'A' },
  janusUrl: 'http://127.0.0.1:1/janus', janusRoom: 5, roomSecret: 's', participants: [], everJoined: [], ...over,
});
const person = (userId: number) => ({ userId, name: `U${userId}`, muted: false, camera: false, screen: false });

describe('MemoryGroupCallStore', () => {
  it('keeps one call per room: a second create answers the first', async () => {
    const store = new MemoryGroupCallStore();
    expect((await store.create(call())).created).to.equal(true);
    const again = await store.create(call({ callId: 'c2' }));
    expect(again.created).to.equal(false);
    expect(again.call.callId).to.equal('c1');
  });

  it('refuses the participant past the limit, but lets one already in join again', async () => {
    const store = new MemoryGroupCallStore();
    await store.create(call());
    expect((await store.join(7, 'c1', person(1), 2)).kind).to.equal('joined');
    expect((await store.join(7, 'c1', person(2), 2)).kind).to.equal('joined');
    expect((await store.join(7, 'c1', person(3), 2)).kind).to.equal('full');
    expect((await store.join(7, 'c1', person(2), 2)).kind).to.equal('joined');
    expect((await store.join(7, 'other', person(3), 2)).kind).to.equal('no-call');
  });

  it('counts everyone who took part, and ends a call once', async () => {
    const store = new MemoryGroupCallStore();
    await store.create(call());
    await store.join(7, 'c1', person(1), 10);
    await store.join(7, 'c1', person(2), 10);
    expect((await store.leave(7, 'c1', 2))?.participants.map((p) => p.userId)).to.deep.equal([1]);
    expect(await store.leave(7, 'c1', 2)).to.equal(null);
    const left = await store.leave(7, 'c1', 1);
    expect(left?.participants).to.deep.equal([]);
    expect(left?.everJoined).to.deep.equal([1, 2]);
    expect((await store.end(7, 'c1'))?.callId).to.equal('c1');
    expect(await store.end(7, 'c1')).to.equal(null);
    expect(await store.ofRoom(7)).to.equal(null);
  });
});

describe('group call payloads', () => {
  it('decodes start with audio by default, and the three kinds of signal', () => {
    expect(decodeGroupCall.start('{"chatRoomId":3}')).to.deep.equal({ chatRoomId: 3, media: 'audio' });
    expect(decodeGroupCall.signal('{"chatRoomId":3,"callId":"a-1","kind":"publish","sdp":"v=0"}')).to.deep.equal({ chatRoomId: 3, callId: 'a-1', kind: 'publish', sdp: 'v=0' });
    expect(decodeGroupCall.signal('{"chatRoomId":3,"callId":"a-1","kind":"candidate","target":"subscriber","candidate":null}')).to.deep.include({ target: 'subscriber', candidate: null });
  });

  it('refuses bodies that are not a group call’s', () => {
    const bad = [
      () => decodeGroupCall.start('{"chatRoomId":3,"media":"fax"}'),
      () => decodeGroupCall.join('{"chatRoomId":0,"callId":"a"}'),
      () => decodeGroupCall.join('{"chatRoomId":3,"callId":"a b"}'),
      () => decodeGroupCall.mediaState('{"chatRoomId":3,"callId":"a","muted":"yes","camera":false,"screen":false}'),
      () => decodeGroupCall.signal('{"chatRoomId":3,"callId":"a","kind":"offer","sdp":"v=0"}'),
      () => decodeGroupCall.signal('{"chatRoomId":3,"callId":"a","kind":"candidate","target":"both","candidate":null}'),
      () => decodeGroupCall.signal('{"chatRoomId":3,"callId":"a","kind":"publish","sdp":""}'),
    ];
    for (const decode of bad) expect(decode).to.throw(PayloadError);
  });
});
