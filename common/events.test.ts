import { expect } from 'chai';
import { decodeCallEvent, decodeChatMessage, decodeRoomEvent, decodeRoomNotice, decodeSystemEvent, isRefreshSignal, parseJson } from './events';
import { callRecordText, groupCallRecordText, systemEventText } from './system-text';

describe('decoding what the server sends', () => {
  describe('a call event', () => {
    it('requires a positive user id on every call event', () => {
      expect(decodeCallEvent('incoming', { userId: 2, name: 'Kim' })).to.deep.include({ userId: 2, name: 'Kim' });
      expect(decodeCallEvent('incoming', { userId: '7' })).to.deep.include({ userId: 7 });
      expect(decodeCallEvent('incoming', { userId: 0 })).to.equal(null);
      expect(decodeCallEvent('incoming', { name: 'Kim' })).to.equal(null);
      expect(decodeCallEvent('incoming', 'hello')).to.equal(null);
    });

    it('keeps a hang-up\'s target and known reason, and drops an unknown reason', () => {
      expect(decodeCallEvent('hangup', { userId: 2, targetUserId: '3', reason: 'timeout' })).to.deep.equal({ userId: 2, targetUserId: 3, reason: 'timeout' });
      expect(decodeCallEvent('hangup', { userId: 2, reason: 'bored' })).to.deep.equal({ userId: 2 });
    });

    it('needs the sdp of an offer or answer and the candidate of an ice-candidate', () => {
      const sdp = { type: 'offer', sdp: 'v=0' };
      expect(decodeCallEvent('offer', { userId: 2, sdp })).to.deep.equal({ userId: 2, sdp });
      expect(decodeCallEvent('answer', { userId: 2 })).to.equal(null);
      expect(decodeCallEvent('ice-candidate', { userId: 2, candidate: null })).to.equal(null);
      expect(decodeCallEvent('ice-candidate', { userId: 2, candidate: { candidate: 'c' } })).to.deep.equal({ userId: 2, candidate: { candidate: 'c' } });
    });
  });

  describe('our call events', () => {
    it('keeps media and callId on incoming and accepted, and ignores an unknown media', () => {
      expect(decodeCallEvent('incoming', { userId: 2, name: 'Kim', media: 'video', callId: 'c1' })).to.deep.equal({ userId: 2, name: 'Kim', media: 'video', callId: 'c1' });
      expect(decodeCallEvent('accepted', { userId: 2, media: 'hologram', callId: '' })).to.deep.equal({ userId: 2 });
    });

    it('needs callId and role on resume, and the three flags on media-state', () => {
      expect(decodeCallEvent('resume', { userId: 2, callId: 'c1', media: 'audio', role: 'caller' })).to.deep.equal({ userId: 2, callId: 'c1', media: 'audio', role: 'caller' });
      expect(decodeCallEvent('resume', { userId: 2, callId: 'c1', role: 'boss' })).to.equal(null);
      expect(decodeCallEvent('media-state', { userId: 2, muted: true, camera: false, screen: false })).to.deep.equal({ userId: 2, muted: true, camera: false, screen: false });
      expect(decodeCallEvent('media-state', { userId: 2, muted: 'yes', camera: false, screen: false })).to.equal(null);
    });

    it('knows the reason connection-lost', () => {
      expect(decodeCallEvent('hangup', { userId: 2, targetUserId: 2, reason: 'connection-lost' })).to.deep.include({ reason: 'connection-lost' });
    });
  });

  describe('a group call record', () => {
    const record = { type: 'groupCall', actorUserId: 3, actorName: 'Kim', media: 'video', durationSec: 3723, participantCount: 4 };

    it('decodes it, refuses a bad count, and reads as its neutral Korean text', () => {
      expect(decodeSystemEvent(record)).to.deep.equal(record);
      expect(decodeSystemEvent({ ...record, participantCount: 0 })).to.equal(undefined);
      expect(groupCallRecordText({ media: 'audio', durationSec: 38, participantCount: 3 })).to.equal('그룹 음성통화 00:38 · 3명');
      expect(groupCallRecordText(record as { media: 'video'; durationSec: number; participantCount: number })).to.equal('그룹 영상통화 01:02:03 · 4명');
    });
  });

  describe('a call record', () => {
    const record = { type: 'call', media: 'video', outcome: 'answered', durationSec: 38, callerUserId: 3, actorUserId: 3, actorName: 'Kim' };

    it('decodes the record with its caller as the actor', () => {
      expect(decodeSystemEvent(record)).to.deep.equal(record);
      const { actorUserId: _id, actorName: _name, ...bare } = record;
      expect(decodeSystemEvent(bare)).to.deep.equal({ ...bare, actorUserId: 3, actorName: '' });
    });

    it('refuses a record with an unknown outcome, media or a bad duration', () => {
      expect(decodeSystemEvent({ ...record, outcome: 'dropped' })).to.equal(undefined);
      expect(decodeSystemEvent({ ...record, media: 'fax' })).to.equal(undefined);
      expect(decodeSystemEvent({ ...record, durationSec: -1 })).to.equal(undefined);
      expect(decodeSystemEvent({ ...record, callerUserId: 0 })).to.equal(undefined);
    });

    it('reads as the neutral Korean text of docs/spec.md', () => {
      const text = (media: 'audio' | 'video', outcome: 'answered' | 'missed' | 'rejected' | 'cancelled', durationSec = 0) =>
        callRecordText({ media, outcome, durationSec });
      expect(text('audio', 'answered', 38)).to.equal('음성통화 00:38');
      expect(text('video', 'answered', 3723)).to.equal('영상통화 01:02:03');
      expect(text('audio', 'missed')).to.equal('음성통화 (응답 없음)');
      expect(text('audio', 'rejected')).to.equal('음성통화 (거절됨)');
      expect(text('video', 'cancelled')).to.equal('영상통화 (취소됨)');
      expect(systemEventText({ ...record, type: 'call', media: 'video', outcome: 'answered' })).to.equal('영상통화 00:38');
    });
  });

  describe('a chat message', () => {
    const base = { messageId: 5, senderId: 1, senderName: 'A', content: 'hi', enrolledAt: '2026-11-24T10:00:00.000Z' };

    it('names its room and ignores fields it does not know', () => {
      expect(decodeChatMessage({ ...base, chatRoomId: 9, extra: 1 }, 9)).to.deep.equal({ ...base, chatRoomId: 9, clientMsgId: null });
      expect(decodeChatMessage(base, 9)).to.deep.include({ chatRoomId: 9 });
    });

    it('refuses a message of another room or without its id, text or time', () => {
      expect(decodeChatMessage({ ...base, chatRoomId: 8 }, 9)).to.equal(null);
      for (const key of ['messageId', 'content', 'enrolledAt'] as const) {
        const { [key]: _dropped, ...rest } = base;
        expect(decodeChatMessage(rest, 9), key).to.equal(null);
      }
      expect(decodeChatMessage({ ...base, senderId: 'x' }, 9)).to.equal(null);
      expect(decodeChatMessage(null, 9)).to.equal(null);
    });

    it('carries a system message\'s leaver, added e-mail and structured event', () => {
      const system = {
        ...base, senderId: null, leftUserId: 4, systemEvent: { type: 'left', actorUserId: 4, actorName: 'B' },
      };
      expect(decodeChatMessage(system, 9)).to.deep.include({ senderId: null, leftUserId: 4, systemEvent: { type: 'left', actorUserId: 4, actorName: 'B' } });
      const added = decodeChatMessage({ ...base, senderId: null, addedUserEmail: 'c@x.io' }, 9);
      expect(added).to.deep.include({ addedUserEmail: 'c@x.io' });
      expect(added).not.to.have.property('systemEvent');
    });
  });

  describe('a system event', () => {
    it('reads each type with the fields it needs', () => {
      expect(decodeSystemEvent({ type: 'renamed', actorUserId: 1, actorName: 'A', newName: 'N' })).to.deep.equal({ type: 'renamed', actorUserId: 1, actorName: 'A', newName: 'N' });
      expect(decodeSystemEvent({ type: 'added', actorUserId: 1, actorName: 'A', targetUserId: 2, targetName: 'B' })).to.deep.equal({
        type: 'added', actorUserId: 1, actorName: 'A', targetUserId: 2, targetName: 'B',
      });
      expect(decodeSystemEvent({ type: 'left', actorUserId: 1, actorName: 'A', newName: 'ignored' })).to.deep.equal({ type: 'left', actorUserId: 1, actorName: 'A' });
    });

    it('refuses an unknown type or a missing field', () => {
      expect(decodeSystemEvent({ type: 'kicked', actorUserId: 1, actorName: 'A' })).to.equal(undefined);
      expect(decodeSystemEvent({ type: 'renamed', actorUserId: 1, actorName: 'A' })).to.equal(undefined);
      expect(decodeSystemEvent({ type: 'added', actorUserId: 1, actorName: 'A', targetName: 'B' })).to.equal(undefined);
      expect(decodeSystemEvent({ type: 'left', actorUserId: 0, actorName: 'A' })).to.equal(undefined);
      expect(decodeSystemEvent('left')).to.equal(undefined);
    });
  });

  it('takes only `true` on the refresh topic as a refresh signal', () => {
    expect(isRefreshSignal(true)).to.equal(true);
    for (const v of [false, 'true', 1, null, {}]) expect(isRefreshSignal(v), String(v)).to.equal(false);
  });

  it('parses a JSON body, and answers undefined for one that is not JSON', () => {
    expect(parseJson('{"a":1}')).to.deep.equal({ a: 1 });
    expect(parseJson('{oops')).to.equal(undefined);
  });
});

describe('decoding the room-events topic', () => {
  it('takes read, typing and presence events of the room and nothing else', () => {
    expect(decodeRoomEvent({ type: 'read', chatRoomId: 4, userId: 2, lastReadSeq: 17 }, 4)).to.deep.equal({ type: 'read', chatRoomId: 4, userId: 2, lastReadSeq: 17 });
    expect(decodeRoomEvent({ type: 'typing', chatRoomId: 4, userId: 2, name: 'Kim' }, 4)).to.deep.equal({ type: 'typing', chatRoomId: 4, userId: 2, name: 'Kim' });
    expect(decodeRoomEvent({ type: 'presence', userId: 2, online: false }, 4)).to.deep.equal({ type: 'presence', userId: 2, online: false });
    expect(decodeRoomEvent({ type: 'read', chatRoomId: 5, userId: 2, lastReadSeq: 17 }, 4)).to.equal(null);
    expect(decodeRoomEvent({ type: 'read', chatRoomId: 4, userId: 2, lastReadSeq: -1 }, 4)).to.equal(null);
    expect(decodeRoomEvent({ type: 'read', chatRoomId: 4, userId: 0, lastReadSeq: 1 }, 4)).to.equal(null);
    expect(decodeRoomEvent({ type: 'presence', userId: 2, online: 'yes' }, 4)).to.equal(null);
    expect(decodeRoomEvent({ type: 'shout', chatRoomId: 4, userId: 2 }, 4)).to.equal(null);
    expect(decodeRoomEvent('read', 4)).to.equal(null);
  });

  it('keeps a chat message\'s seq when it is a non-negative integer', () => {
    const base = { messageId: 5, senderId: 1, senderName: 'A', content: 'hi', enrolledAt: '2026-11-24T10:00:00.000Z' };
    expect(decodeChatMessage({ ...base, seq: 9 }, 1)?.seq).to.equal(9);
    expect(decodeChatMessage({ ...base, seq: 1.5 }, 1)?.seq).to.equal(undefined);
    expect(decodeChatMessage(base, 1)?.seq).to.equal(undefined);
  });
});

describe('decoding changes of messages', () => {
  it('reads edited, deleted and reaction events of the room, and drops malformed ones', () => {
    const editedAt = '2026-11-25T09:00:00.000Z';
    expect(decodeRoomEvent({ type: 'edited', chatRoomId: 3, messageId: 7, content: 'fixed', editedAt, changeSeq: 2 }, 3))
      .to.deep.equal({ type: 'edited', chatRoomId: 3, messageId: 7, content: 'fixed', editedAt, changeSeq: 2 });
    expect(decodeRoomEvent({ type: 'deleted', chatRoomId: 3, messageId: 7, changeSeq: 3 }, 3)).to.deep.equal({ type: 'deleted', chatRoomId: 3, messageId: 7, changeSeq: 3 });
    expect(decodeRoomEvent({ type: 'reaction', chatRoomId: 3, messageId: 7, userId: 5, emoji: '❤️', on: false, changeSeq: 4 }, 3))
      .to.deep.equal({ type: 'reaction', chatRoomId: 3, messageId: 7, userId: 5, emoji: '❤️', on: false, changeSeq: 4 });
    expect(decodeRoomEvent({ type: 'deleted', chatRoomId: 4, messageId: 7, changeSeq: 3 }, 3)).to.equal(null);
    expect(decodeRoomEvent({ type: 'edited', chatRoomId: 3, messageId: 7, editedAt, changeSeq: 2 }, 3)).to.equal(null);
    expect(decodeRoomEvent({ type: 'reaction', chatRoomId: 3, messageId: 7, userId: 5, emoji: '🔥', on: true, changeSeq: 4 }, 3))
      .to.deep.equal({ type: 'reaction', chatRoomId: 3, messageId: 7, userId: 5, emoji: '🔥', on: true, changeSeq: 4 });
    expect(decodeRoomEvent({ type: 'reaction', chatRoomId: 3, messageId: 7, userId: 5, emoji: 'x', on: true, changeSeq: 4 }, 3)).to.equal(null);
    expect(decodeRoomEvent({ type: 'reaction', chatRoomId: 3, messageId: 7, userId: 5, emoji: '🔥🔥', on: true, changeSeq: 4 }, 3)).to.equal(null);
  });

  it('reads a message\'s edit, deletion, quote and reactions, keeping only single emoji', () => {
    const m = decodeChatMessage({
      messageId: 9, chatRoomId: 3, senderId: 1, senderName: 'A', content: '', enrolledAt: 'x', editedAt: 'y', deleted: true, changeSeq: 5,
      replyTo: { messageId: 8, senderName: 'B', content: '삭제된 메시지입니다.', deleted: true },
      reactions: [{ emoji: '👍', userIds: [1, 2] }, { emoji: '🔥', userIds: [3] }, { emoji: '🔥a', userIds: [4] }, { emoji: '🙏', userIds: ['x'] }],
    }, 3)!;
    expect(m).to.deep.include({ editedAt: 'y', deleted: true, changeSeq: 5 });
    expect(m.replyTo).to.deep.equal({ messageId: 8, senderName: 'B', content: '삭제된 메시지입니다.', deleted: true });
    expect(m.reactions).to.deep.equal([{ emoji: '👍', userIds: [1, 2] }, { emoji: '🔥', userIds: [3] }]);
  });
});

describe('decoding issue 26\'s notices and mentions', () => {
  const notice = { messageId: 3, content: '금요일 7시', setByName: '김철수', setAt: '2026-11-26T10:00:00.000Z' };

  it('reads the room\'s notice event, its removal (null), and drops another room\'s or a malformed one', () => {
    expect(decodeRoomEvent({ type: 'notice', chatRoomId: 9, notice }, 9)).to.deep.equal({ type: 'notice', chatRoomId: 9, notice });
    expect(decodeRoomEvent({ type: 'notice', chatRoomId: 9, notice: null }, 9)).to.deep.equal({ type: 'notice', chatRoomId: 9, notice: null });
    expect(decodeRoomEvent({ type: 'notice', chatRoomId: 8, notice }, 9)).to.equal(null);
    expect(decodeRoomEvent({ type: 'notice', chatRoomId: 9, notice: { ...notice, messageId: 'x' } }, 9)).to.equal(null);
    expect(decodeRoomEvent({ type: 'notice', chatRoomId: 9 }, 9)).to.equal(null);
    expect(decodeRoomNotice({ ...notice, extra: 1 })).to.deep.equal(notice);
  });

  it('keeps a message\'s mentioned ids, leaving out what is not an id, and no field when none', () => {
    const base = { messageId: 5, content: '@김 hi', enrolledAt: '2026-11-26T10:00:00.000Z', senderId: 2 };
    expect(decodeChatMessage({ ...base, mentions: [3, 'x', -1, 4] }, 9)?.mentions).to.deep.equal([3, 4]);
    expect(decodeChatMessage({ ...base, mentions: [] }, 9)).not.to.have.property('mentions');
    expect(decodeChatMessage(base, 9)).not.to.have.property('mentions');
  });
});
