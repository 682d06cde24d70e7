import { expect } from 'chai';
import { toChatMessage } from '../../../../server/src/features/chat/send-message';
import { seqOf } from '../../../src/load/scenario';

describe('load scenario: the seq of a delivered chat message', () => {
  const message = (content: string, replyTo: boolean) =>
    JSON.stringify(toChatMessage({
      id: 9, seq: 41, roomId: 3, senderId: 5, senderName: '김철수', content, createdAtMs: 0, clientMsgId: 'c-1',
      leftUserId: null, addedUserEmail: null, systemEvent: null, attachment: null,
      replyTo: replyTo ? { id: 2, senderName: '홍길동', content: '"seq":99', deleted: false } : null,
    } as never));

  it('reads the top-level seq as the server writes it, past text that spells "seq", in the message or in its quoted reply', () => {
    expect(seqOf(message('plain', false))).to.equal(41);
    expect(seqOf(message('"seq":12 in the text', true))).to.equal(41);
  });

  it('answers null for a body without one', () => {
    expect(seqOf('{"type":"read","chatRoomId":3,"userId":5,"lastReadSeq":4}')).to.equal(null);
    expect(seqOf('{"seq":}')).to.equal(null);
  });
});
