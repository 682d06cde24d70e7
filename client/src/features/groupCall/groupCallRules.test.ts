import { expect } from 'chai';
import type { GroupCallSignal } from '@common/group-call';
import { canStartGroupCall, concernsCall, farewellText, pickSpeaker } from './groupCallRules';

describe('group call rules', () => {
  it('starts only in rooms of two or more members', () => {
    expect(canStartGroupCall(1)).to.equal(false);
    expect(canStartGroupCall(2)).to.equal(true);
  });

  it('highlights the loudest participant above the speaking level, and nobody in silence', () => {
    expect(pickSpeaker([{ userId: 1, level: 0.01 }, { userId: 2, level: 0.02 }], null)).to.equal(null);
    expect(pickSpeaker([{ userId: 1, level: 0.2 }, { userId: 2, level: 0.5 }], null)).to.equal(2);
  });

  it('keeps the highlight on the current speaker while close to the loudest, moves it when far below', () => {
    expect(pickSpeaker([{ userId: 1, level: 0.4 }, { userId: 2, level: 0.5 }], 1)).to.equal(1);
    expect(pickSpeaker([{ userId: 1, level: 0.1 }, { userId: 2, level: 0.5 }], 1)).to.equal(2);
    expect(pickSpeaker([{ userId: 2, level: 0.5 }], 1)).to.equal(2);
  });

  it("says the server's text of a refusal, else its own for the reason", () => {
    const full: GroupCallSignal = { kind: 'refused', callId: 'c', chatRoomId: 1, reason: 'full', message: '' };
    expect(farewellText(full)).to.equal('통화 인원이 가득 찼습니다.');
    expect(farewellText({ ...full, message: '서버의 말' })).to.equal('서버의 말');
    expect(farewellText({ kind: 'ended', callId: 'c', chatRoomId: 1, reason: 'ended', message: '' })).to.equal(null);
    expect(farewellText({ kind: 'ended', callId: 'c', chatRoomId: 1, reason: 'media-server-lost', message: '' })).to.equal('통화 서버와 연결이 끊겨 그룹통화가 종료되었습니다.');
  });

  it('takes a refusal of a start by its room, and every other signal by its call', () => {
    const refusal: GroupCallSignal = { kind: 'refused', callId: null, chatRoomId: 5, reason: 'full', message: '' };
    expect(concernsCall(refusal, 5, null)).to.equal(true);
    expect(concernsCall(refusal, 6, null)).to.equal(false);
    const answer: GroupCallSignal = { kind: 'publish-answer', callId: 'a', sdp: 'v=0' };
    expect(concernsCall(answer, 5, 'a')).to.equal(true);
    expect(concernsCall(answer, 5, 'b')).to.equal(false);
    expect(concernsCall(answer, 5, null)).to.equal(false);
  });
});
