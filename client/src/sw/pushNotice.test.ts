import { expect } from 'chai';
import { decodePushPayload, noticeFor } from './pushNotice';

describe('what a push message shows', () => {
  it('rings with the caller name and whether it is voice or video, and only focuses an open tab', () => {
    const video = decodePushPayload(JSON.stringify({ kind: 'incoming-call', callerId: 2, callerName: 'Kim', media: 'video' }));
    expect(video && noticeFor(video)).to.deep.equal({ title: '전화가 왔습니다', body: 'Kim님의 전화 · 영상통화', tag: 'call', url: '/chat-list', focusOnly: true, requireInteraction: true });
    // A push made before media was said (or with a media we do not know) is a voice call.
    for (const media of [undefined, 'hologram']) {
      const payload = decodePushPayload(JSON.stringify({ kind: 'incoming-call', callerId: 2, callerName: 'Kim', media }));
      expect(payload && noticeFor(payload)).to.include({ body: 'Kim님의 전화 · 음성통화' });
    }
  });

  it('rings a group call with its starter, one notification per room, opening the room', () => {
    const payload = decodePushPayload(JSON.stringify({ kind: 'group-call', chatRoomId: 4, callId: 'c-1', media: 'video', starterName: '김철수' }));
    expect(payload && noticeFor(payload)).to.deep.equal({
      title: '그룹통화', body: '김철수님이 그룹통화를 시작했습니다.', tag: 'group-call-4', url: '/chat-room?cri=4', focusOnly: false, requireInteraction: true,
    });
    expect(decodePushPayload(JSON.stringify({ kind: 'group-call', chatRoomId: 4, callId: 'c-1', media: 'smoke', starterName: '김' }))).to.equal(null);
  });

  it("shows a message under its sender's name, one notification per room, opening the room", () => {
    const payload = decodePushPayload(JSON.stringify({ kind: 'message', chatRoomId: 4, messageId: 9, senderName: '이영희', content: '점심 먹었어?' }));
    expect(payload && noticeFor(payload)).to.include({ title: '이영희', body: '점심 먹었어?', tag: 'room-4', url: '/chat-room?cri=4', focusOnly: false });
  });

  it('ignores a push that is not one of ours', () => {
    for (const text of ['not json', 'null', '{"kind":"message","chatRoomId":"4"}', '{"kind":"other"}']) expect(decodePushPayload(text)).to.equal(null);
  });
});
