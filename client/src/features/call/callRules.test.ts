import { expect } from 'chai';
import { api } from '@common/api';
import { allFeatures } from '../../app/allFeatures';
import { createFakeServices, eventually } from '../../app/fakeServices';
import { createAppStore } from '../../app/store';
import { selectUserSearch, userSearchSubmitted } from '../userSearch';
import {
  answerOutcome,
  CALL_PATH,
  candidateDisposition,
  CHAT_LIST_PATH,
  connectionOutcome,
  formatCallDuration,
  LOCAL_HANGUP,
  pathAfterCall,
  PEER_HANGUP,
  QUIET_END,
  ringingOutcome,
} from './callOutcomeRules';
import { canStartCall, decideSignal, isCallActive, parseMissedCall, skipReason, type CallPhase } from './callRules';
import { callActions, callReducer, initialCallState } from './callSlice';

describe('call rules', () => {
  it('formats the call timer as mm:ss', () => {
    expect(formatCallDuration(0)).to.equal('00:00');
    expect(formatCallDuration(9)).to.equal('00:09');
    expect(formatCallDuration(61)).to.equal('01:01');
    expect(formatCallDuration(599)).to.equal('09:59');
    expect(formatCallDuration(3600)).to.equal('60:00');
    expect(formatCallDuration(-3)).to.equal('00:00');
  });

  it('adds a remote candidate only once the remote description exists, queues earlier ones and skips them without a connection', () => {
    expect(candidateDisposition(true, true)).to.equal('apply');
    expect(candidateDisposition(true, false)).to.equal('queue');
    expect(candidateDisposition(false, false)).to.equal('skip');
  });

  it('treats connected and completed as live, failed and disconnected as interrupted (ICE restart), closed as the end, the rest as waiting', () => {
    expect(connectionOutcome('connected')).to.equal('connected');
    expect(connectionOutcome('completed')).to.equal('connected');
    expect(connectionOutcome('failed')).to.equal('interrupted');
    expect(connectionOutcome('disconnected')).to.equal('interrupted');
    expect(connectionOutcome('closed')).to.equal('ended');
    for (const state of ['new', 'checking', 'connecting'] as const) expect(connectionOutcome(state)).to.equal('pending');
  });

  it('allows a new call only when none is active', () => {
    const phases: CallPhase[] = ['idle', 'outgoing', 'incoming', 'connecting', 'connected'];
    expect(phases.filter(canStartCall)).to.deep.equal(['idle']);
    expect(phases.filter(isCallActive)).to.deep.equal(['outgoing', 'incoming', 'connecting', 'connected']);
  });

  describe('routing a call signal', () => {
    it('rings for an incoming call only when idle', () => {
      expect(decideSignal('idle', null, 'incoming', { userId: 2, name: 'Kim' })).to.deep.equal({ kind: 'ring', peer: { userId: 2, name: 'Kim' } });
      expect(decideSignal('connected', 3, 'incoming', { userId: 2, name: 'Kim' }).kind).to.equal('ignore');
    });

    it('ignores signals from anyone but the peer and signals with no call', () => {
      expect(decideSignal('connecting', 2, 'offer', { userId: 9, sdp: 'x' }).kind).to.equal('ignore');
      expect(decideSignal('idle', null, 'hangup', { userId: 2 }).kind).to.equal('ignore');
    });

    it('takes accepted and rejected only while the outgoing call rings, telling busy apart', () => {
      expect(decideSignal('outgoing', 2, 'accepted', { userId: 2 })).to.deep.equal({ kind: 'peerAccepted' });
      expect(decideSignal('connected', 2, 'accepted', { userId: 2 }).kind).to.equal('ignore');
      expect(decideSignal('outgoing', 2, 'rejected', { userId: 2, reason: 'rejected' })).to.deep.equal({ kind: 'peerRejected', busy: false });
      expect(decideSignal('outgoing', 2, 'rejected', { userId: 2, reason: 'busy' })).to.deep.equal({ kind: 'peerRejected', busy: true });
    });

    it('marks a peer hang-up as unanswered while ringing on either side', () => {
      expect(decideSignal('incoming', 2, 'hangup', { userId: 2 })).to.deep.equal({ kind: 'peerHungUp', unanswered: true });
      expect(decideSignal('outgoing', 2, 'hangup', { userId: 2 })).to.deep.equal({ kind: 'peerHungUp', unanswered: true });
      expect(decideSignal('connected', 2, 'hangup', { userId: 2 })).to.deep.equal({ kind: 'peerHungUp', unanswered: false });
      expect(decideSignal('outgoing', 2, 'hangup', { userId: 2, reason: 'timeout' })).to.deep.equal({ kind: 'peerHungUp', unanswered: true, reason: 'timeout' });
    });

    it('passes offers, answers and candidates only once the call is accepted', () => {
      expect(decideSignal('connecting', 2, 'offer', { userId: 2 }).kind).to.equal('offer');
      expect(decideSignal('connected', 2, 'answer', { userId: 2 }).kind).to.equal('answer');
      expect(decideSignal('connecting', 2, 'ice-candidate', { userId: 2 }).kind).to.equal('candidate');
      expect(decideSignal('incoming', 2, 'offer', { userId: 2 }).kind).to.equal('ignore');
      expect(decideSignal('outgoing', 2, 'ice-candidate', { userId: 2 }).kind).to.equal('ignore');
    });
  });
});

describe('how a call ends', () => {
  it('starts negotiating once the peer accepts, and ends an unanswered call on /call with the reason', () => {
    expect(answerOutcome(decideSignal('outgoing', 2, 'accepted', { userId: 2 }), 'accepted')).to.deep.equal({ kind: 'accepted' });
    expect(answerOutcome(decideSignal('outgoing', 2, 'rejected', { userId: 2, reason: 'rejected' }), 'rejected')).to.deep.equal({
      kind: 'ended', ending: { sendHangup: false, navigateTo: CALL_PATH, alert: 'peerRejected' },
    });
    expect(answerOutcome(decideSignal('outgoing', 2, 'rejected', { userId: 2, reason: 'busy' }), 'rejected')).to.deep.equal({
      kind: 'ended', ending: { sendHangup: false, navigateTo: CALL_PATH, alert: 'peerBusy' },
    });
    expect(answerOutcome(decideSignal('outgoing', 2, 'hangup', { userId: 2, reason: 'timeout' }), 'hangup')).to.deep.equal({
      kind: 'ended', ending: { sendHangup: false, navigateTo: CALL_PATH, alert: 'noAnswer' },
    });
    expect(answerOutcome(decideSignal('outgoing', 2, 'hangup', { userId: 2, reason: 'unavailable' }), 'hangup')).to.deep.equal({
      kind: 'ended', ending: { sendHangup: false, navigateTo: CALL_PATH, alert: 'unavailable' },
    });
    // Without a reason only the ringing clears: nothing sent, nowhere to go, nothing said.
    expect(answerOutcome(decideSignal('outgoing', 2, 'hangup', { userId: 2 }), 'hangup')).to.deep.equal({ kind: 'ended', ending: QUIET_END });
  });

  it('skips what does not answer the outgoing call, saying why', () => {
    expect(answerOutcome(decideSignal('outgoing', 2, 'accepted', { userId: 9 }), 'accepted')).to.deep.equal({ kind: 'skip', reason: 'accepted from a user who is not the peer' });
    expect(answerOutcome(decideSignal('outgoing', 2, 'incoming', { userId: 3 }), 'incoming')).to.deep.equal({ kind: 'skip', reason: 'a call is already active' });
    expect(skipReason({ kind: 'offer' }, 'offer', 'while waiting for an answer')).to.equal('offer while waiting for an answer');
  });

  it('counts a ringing call as missed only when the server hangs it up for the timeout', () => {
    expect(ringingOutcome(decideSignal('incoming', 2, 'hangup', { userId: 2, reason: 'timeout' }), 'hangup')).to.deep.equal({ kind: 'missed' });
    expect(ringingOutcome(decideSignal('incoming', 2, 'hangup', { userId: 2 }), 'hangup')).to.deep.equal({ kind: 'cancelled' });
    expect(ringingOutcome(decideSignal('incoming', 2, 'offer', { userId: 2 }), 'offer')).to.deep.equal({ kind: 'skip', reason: 'offer before the call was accepted' });
    expect(ringingOutcome({ kind: 'peerAccepted' }, 'accepted')).to.deep.equal({ kind: 'skip', reason: 'accepted while ringing' });
  });

  it('goes where the ending says only from /call, and nowhere after a quiet end', () => {
    expect(pathAfterCall(LOCAL_HANGUP, CALL_PATH)).to.equal(CHAT_LIST_PATH);
    expect(pathAfterCall(PEER_HANGUP, CALL_PATH)).to.equal(CHAT_LIST_PATH);
    expect(pathAfterCall(LOCAL_HANGUP, '/chat-room')).to.equal(null);
    expect(pathAfterCall(QUIET_END, CALL_PATH)).to.equal(null);
    expect(LOCAL_HANGUP.sendHangup && !PEER_HANGUP.sendHangup && !QUIET_END.sendHangup).to.equal(true);
  });

  it('reads back a stored missed call, nothing for what is not a peer, and throws on text that is not JSON', () => {
    expect(parseMissedCall(JSON.stringify({ userId: 2, name: 'Kim', extra: 1 }))).to.deep.equal({ userId: 2, name: 'Kim' });
    expect(parseMissedCall(null)).to.equal(null);
    expect(parseMissedCall(JSON.stringify({ userId: '2', name: 'Kim' }))).to.equal(null);
    expect(parseMissedCall('5')).to.equal(null);
    expect(() => parseMissedCall('{not json')).to.throw(SyntaxError);
  });
});

describe('call state transitions', () => {
  const kim = { userId: 2, name: 'Kim' };

  it('goes outgoing → connecting → connected, counts seconds only while connected, and resets on end', () => {
    let state = callReducer(initialCallState, callActions.outgoingStarted(kim));
    expect(state).to.include({ phase: 'outgoing', role: 'caller' });
    state = callReducer(state, callActions.timerTicked());
    expect(state.elapsedSeconds).to.equal(0);
    state = callReducer(state, callActions.negotiationStarted());
    state = callReducer(state, callActions.connectionEstablished());
    state = callReducer(state, callActions.timerTicked());
    state = callReducer(state, callActions.timerTicked());
    expect(state).to.include({ phase: 'connected', elapsedSeconds: 2 });
    state = callReducer(state, callActions.callEnded());
    expect(state).to.deep.equal(initialCallState);
  });

  it('does not let a second call replace the active one', () => {
    const ringing = callReducer(initialCallState, callActions.incomingReceived(kim));
    const after = callReducer(ringing, callActions.outgoingStarted({ userId: 3, name: 'Lee' }));
    expect(after).to.deep.equal(ringing);
  });

  it('keeps the search results across a call', async () => {
    // The /call screen's results are the user search's (features/userSearch): a call leaves them be.
    const users = [{ userId: 2, name: 'Kim', email: 'kim@example.com' }];
    const store = createAppStore(createFakeServices({ [`GET ${api.userSearch}`]: () => users }), { features: allFeatures });
    store.dispatch(userSearchSubmitted('Kim', { leaveOnFailure: false }));
    await eventually(() => selectUserSearch(store.getState()).results.length > 0, 'results');
    store.dispatch(callActions.outgoingStarted(kim));
    store.dispatch(callActions.callEnded());
    expect(selectUserSearch(store.getState()).results).to.deep.equal(users);
  });
});
