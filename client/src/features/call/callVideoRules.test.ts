import { expect } from 'chai';
import type { CallSystemEvent } from '@common/api';
import { koCall } from '../../i18n/koCall';
import { answerOutcome, CONNECTION_LOST, endSummary, LOCAL_HANGUP, PEER_HANGUP, peerHangupEnding, QUIET_END } from './callOutcomeRules';
import { callStatus, decideSignal, showsPeerVideo } from './callRules';
import { callRecordView } from './callRecordView';
import { decodeCallHistory, isMissedCall } from './callHistoryRules';
import { callActions, callReducer, initialCallState } from './callSlice';

const kinds = { audio: koCall.voiceCall, video: koCall.videoCall };
const record = (over: Partial<CallSystemEvent>): CallSystemEvent => ({
  type: 'call',
  actorUserId: 1,
  actorName: 'A',
  media: 'audio',
  outcome: 'answered',
  durationSec: 38,
  callerUserId: 1,
  ...over,
});

describe('call rules for video, ringing, media-state and survival', () => {
  it('reads 호출 중… until the callee rings, 전화 거는 중… while it rings, 연결 중… until media, then 통화 중', () => {
    expect(callStatus('outgoing', false, false)).to.equal('calling');
    expect(callStatus('outgoing', true, false)).to.equal('ringing');
    expect(callStatus('connecting', true, false)).to.equal('connecting');
    expect(callStatus('connected', false, false)).to.equal('inCall');
    expect(callStatus('connected', false, true)).to.equal('peerReconnecting');
    expect([koCall.calling, koCall.ringing, koCall.connecting, koCall.peerReconnecting]).to.deep.equal([
      '호출 중…',
      '전화 거는 중…',
      '연결 중…',
      '상대방 연결이 끊겨 다시 연결하는 중…',
    ]);
  });

  it('routes ringing to an outgoing call only, and media-state and peer-reconnecting to an accepted one', () => {
    expect(decideSignal('outgoing', 2, 'ringing', { userId: 2, callId: 'c' })).to.deep.equal({ kind: 'peerRinging' });
    expect(decideSignal('connected', 2, 'ringing', { userId: 2 }).kind).to.equal('ignore');
    expect(decideSignal('connected', 2, 'media-state', { userId: 2, muted: true, camera: false, screen: true })).to.deep.equal({
      kind: 'peerMedia',
      state: { muted: true, camera: false, screen: true },
    });
    expect(decideSignal('outgoing', 2, 'media-state', { userId: 2, muted: true, camera: false, screen: false }).kind).to.equal('ignore');
    expect(decideSignal('connected', 2, 'media-state', { userId: 3, muted: true, camera: false, screen: false }).kind).to.equal('ignore');
    expect(decideSignal('connected', 2, 'peer-reconnecting', { userId: 2 })).to.deep.equal({ kind: 'peerReconnecting' });
    expect(answerOutcome(decideSignal('outgoing', 2, 'ringing', { userId: 2 }), 'ringing')).to.deep.equal({ kind: 'ringing' });
  });

  it('resumes a call with no call on this page (a reload) and an active one, with the role the server names', () => {
    expect(decideSignal('idle', null, 'resume', { userId: 2, callId: 'c', media: 'video', role: 'callee' })).to.deep.equal({
      kind: 'resume',
      peer: { userId: 2, name: '2' },
      role: 'callee',
      media: 'video',
    });
    expect(decideSignal('connected', 2, 'resume', { userId: 2, callId: 'c', role: 'caller' })).to.deep.include({ kind: 'resume', role: 'caller', media: 'audio' });
    expect(decideSignal('outgoing', 2, 'resume', { userId: 2, callId: 'c', role: 'caller' }).kind).to.equal('ignore');
    expect(decideSignal('idle', null, 'resume', { userId: 2, callId: 'c' }).kind).to.equal('ignore');
  });

  it('ends a call lost for good with 연결이 끊겨 통화가 종료되었습니다., other hang-ups as before', () => {
    expect(peerHangupEnding('connection-lost')).to.equal(CONNECTION_LOST);
    expect(peerHangupEnding(undefined)).to.equal(PEER_HANGUP);
    const texts = { ...koCall.endReasons };
    expect(endSummary(CONNECTION_LOST, 'Kim', true, 38, texts)).to.deep.equal({ peerName: 'Kim', text: '연결이 끊겨 통화가 종료되었습니다.' });
    expect(endSummary(LOCAL_HANGUP, 'Kim', true, 38, texts)).to.deep.equal({ peerName: 'Kim', text: '통화 종료 · 00:38' });
    expect(endSummary(LOCAL_HANGUP, 'Kim', false, 0, texts)).to.deep.equal({ peerName: 'Kim', text: '통화 종료' });
    expect(endSummary({ ...LOCAL_HANGUP, sendHangup: false, alert: 'noAnswer' }, 'Kim', false, 0, texts)?.text).to.equal('상대방이 응답하지 않습니다.');
    expect(endSummary(QUIET_END, 'Kim', false, 0, texts)).to.equal(null);
  });

  it('shows the peer\'s video while its camera or screen is on, and assumes a video call\'s camera until it tells', () => {
    expect(showsPeerVideo('video', null)).to.equal(true);
    expect(showsPeerVideo('audio', null)).to.equal(false);
    expect(showsPeerVideo('video', { muted: false, camera: false, screen: false })).to.equal(false);
    expect(showsPeerVideo('audio', { muted: false, camera: false, screen: true })).to.equal(true);
  });

  it('words a call record for each viewer', () => {
    const view = (over: Partial<CallSystemEvent>, me: number) => callRecordView(record(over), me, koCall.record, kinds);
    expect(view({}, 1)).to.deep.include({ title: '발신 음성통화', duration: '00:38', outgoing: true, missed: false });
    expect(view({ media: 'video' }, 2)).to.deep.include({ title: '수신 영상통화', duration: '00:38', outgoing: false });
    expect(view({ outcome: 'missed', durationSec: 0 }, 1)).to.deep.include({ title: '응답 없는 통화', duration: null });
    expect(view({ outcome: 'missed', durationSec: 0 }, 2)).to.deep.include({ title: '부재중 전화', missed: true });
    expect(view({ outcome: 'cancelled', durationSec: 0 }, 1).title).to.equal('취소된 통화');
    expect(view({ outcome: 'cancelled', durationSec: 0 }, 2).title).to.equal('부재중 전화');
    expect(view({ outcome: 'rejected', durationSec: 0 }, 1).title).to.equal('거절된 통화');
    expect(view({ outcome: 'rejected', durationSec: 0 }, 2).title).to.equal('거절한 통화');
  });

  it('keeps the well-formed entries of a call-history page and counts the missed incoming ones', () => {
    const good = { callId: 9, peerUserId: 2, peerName: 'Kim', media: 'video', direction: 'incoming', outcome: 'missed', startedAt: '2026-11-26T10:00:00Z', durationSec: 0 };
    const page = decodeCallHistory({ calls: [good, { ...good, callId: 'x' }, { ...good, outcome: 'lost' }, null], hasMore: true });
    expect(page).to.deep.equal({ calls: [good], hasMore: true });
    expect(decodeCallHistory('nonsense')).to.deep.equal({ calls: [], hasMore: false });
    expect(isMissedCall({ direction: 'incoming', outcome: 'cancelled' })).to.equal(true);
    expect(isMissedCall({ direction: 'outgoing', outcome: 'missed' })).to.equal(false);
  });
});

describe('call state for video and survival', () => {
  const kim = { userId: 2, name: 'Kim' };

  it('keeps the media a call started with, the peer ringing and its media-state, and forgets them at the end', () => {
    let state = callReducer(initialCallState, callActions.outgoingStarted({ ...kim, media: 'video' }));
    expect(state).to.include({ media: 'video', peerRinging: false });
    expect(state.peer).to.deep.equal(kim);
    state = callReducer(state, callActions.peerRang());
    expect(state.peerRinging).to.equal(true);
    state = callReducer(state, callActions.negotiationStarted());
    state = callReducer(state, callActions.peerMediaChanged({ muted: true, camera: false, screen: false }));
    state = callReducer(state, callActions.localVideoChanged({ camera: true, screen: false }));
    expect(state).to.deep.include({ peerMedia: { muted: true, camera: false, screen: false }, camera: true });
    state = callReducer(state, callActions.callEnded({ peerName: 'Kim', text: '통화 종료 · 00:01' }));
    expect(state).to.deep.equal({ ...initialCallState, ended: { peerName: 'Kim', text: '통화 종료 · 00:01' } });
    expect(callReducer(state, callActions.endScreenDismissed())).to.deep.equal(initialCallState);
  });

  it('goes back to connecting on resume, keeping the timer, and back to 통화 중 once media flows', () => {
    let state = callReducer(initialCallState, callActions.incomingReceived(kim));
    state = callReducer(state, callActions.negotiationStarted());
    state = callReducer(state, callActions.connectionEstablished());
    state = callReducer(state, callActions.timerTicked());
    state = callReducer(state, callActions.peerReconnectingChanged(true));
    expect(state.peerReconnecting).to.equal(true);
    state = callReducer(state, callActions.resumed());
    expect(state).to.include({ phase: 'connecting', peerReconnecting: false, elapsedSeconds: 1 });
    state = callReducer(state, callActions.connectionEstablished());
    expect(state.phase).to.equal('connected');
  });

  it('starts a resumed call (after a reload) connecting, with the role the server named', () => {
    const state = callReducer(initialCallState, callActions.resumeStarted({ ...kim, media: 'audio', role: 'callee' }));
    expect(state).to.include({ phase: 'connecting', role: 'callee', media: 'audio' });
  });
});
