import { expect } from 'chai';
import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { api } from '@common/api';
import { app, queues, topics } from '@common/destinations';
import type { GroupCallCandidate, GroupCallPeer, GroupCallStream } from '@common/group-call';
import { FakeMicrophone } from '../../app/callFakes.test-support';
import { eventually, FakeHttp, FakeStomp, memoryStorage, refuse } from '../../app/fakeServices';
import type { GroupRtcService, GroupSession, GroupSessionEvent } from '../../services/groupRtc';
import { groupCallKey } from './groupCallMemory';
import { groupCallSaga } from './groupCallSaga';
import { groupCallActions, groupCallReducer } from './groupCallSlice';

const ME = 1;
const ROOM = 7;
const CALL = 'call-abc';
const ICE = [{ urls: 'turn:127.0.0.1:3478', username: 'u', credential: 'p' }];

class FakeGroupSession implements GroupSession {
  readonly media = new FakeMicrophone();
  readonly publishAnswers: string[] = [];
  readonly subscribeOffers: Array<{ sdp: string; streams: GroupCallStream[] }> = [];
  readonly candidates: Array<{ target: GroupCallPeer; candidate: GroupCallCandidate | null }> = [];
  levels: Array<{ userId: number; level: number }> = [];
  closed = false;
  /** While set, a subscribe offer waits for it (the browser still applying it). */
  offerGate: Promise<void> | null = null;
  private readonly listeners = new Set<(event: GroupSessionEvent) => void>();
  async publishOffer() {
    return 'v=0 publish-offer';
  }
  async acceptPublishAnswer(sdp: string) {
    this.publishAnswers.push(sdp);
  }
  async acceptSubscribeOffer(sdp: string, streams: GroupCallStream[]) {
    this.subscribeOffers.push({ sdp, streams });
    await this.offerGate;
    return 'v=0 subscribe-answer';
  }
  async addCandidate(target: GroupCallPeer, candidate: GroupCallCandidate | null) {
    this.candidates.push({ target, candidate });
  }
  onEvent(listener: (event: GroupSessionEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async audioLevels() {
    return this.levels;
  }
  close() {
    this.closed = true;
  }
  emit(event: GroupSessionEvent) {
    this.listeners.forEach((listener) => listener(event));
  }
}

class FakeGroupRtc implements GroupRtcService {
  readonly sessions: FakeGroupSession[] = [];
  readonly opened: Array<{ video: boolean; iceServers: RTCIceServer[] }> = [];
  microphoneDenied = false;
  async open(video: boolean, iceServers: RTCIceServer[]) {
    if (this.microphoneDenied) throw new DOMException('Permission denied', 'NotAllowedError');
    this.opened.push({ video, iceServers });
    const session = new FakeGroupSession();
    this.sessions.push(session);
    return session;
  }
}

function harness({ connected = true, storage = memoryStorage(), groupCallAnswer = () => ({ active: false }) }: { connected?: boolean; storage?: ReturnType<typeof memoryStorage>; groupCallAnswer?: () => unknown } = {}) {
  const stomp = new FakeStomp();
  if (connected) stomp.connect();
  const http = new FakeHttp({ [`GET ${api.groupCall}`]: groupCallAnswer });
  const groupRtc = new FakeGroupRtc();
  const alerts: string[] = [];
  const errors: string[] = [];
  const sagaMiddleware = createSagaMiddleware({
    context: {
      stomp,
      http,
      groupRtc,
      groupCallStorage: storage,
      alert: (message: string) => alerts.push(message),
      logError: (context: string, error: unknown) => errors.push(`${context}: ${String(error)}`),
    },
  });
  const store = configureStore({ reducer: { groupCall: groupCallReducer }, middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware) });
  const task = sagaMiddleware.run(groupCallSaga);
  store.dispatch(groupCallActions.listenRequested({ userId: ME }));
  return { stomp, http, groupRtc, alerts, errors, store, storage, stop: () => task.cancel() };
}
type Harness = ReturnType<typeof harness>;

const signalQueue = queues.call('group-signal', ME);

async function joinedCall(h: Harness): Promise<FakeGroupSession> {
  await eventually(() => h.stomp.subscriptions.has(queues.call('group-incoming', ME)), 'ring queue subscribed');
  h.store.dispatch(groupCallActions.joinRequested({ chatRoomId: ROOM, media: 'audio' }));
  await eventually(() => h.stomp.sentTo(app.groupCallStart).length === 1, 'start sent');
  h.stomp.deliver(signalQueue, { kind: 'joined', callId: CALL, chatRoomId: ROOM, media: 'audio', iceServers: ICE });
  await eventually(() => h.stomp.sentTo(app.groupCallSignal).length === 1, 'publish offer sent');
  return h.groupRtc.sessions[0];
}

describe('group call saga', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.stop());

  it('rings once when a call starts in one of the rooms, and forgets the ring when dismissed', async () => {
    await eventually(() => h.stomp.subscriptions.has(queues.call('group-incoming', ME)), 'ring queue subscribed');
    h.stomp.deliver(queues.call('group-incoming', ME), { chatRoomId: ROOM, callId: CALL, media: 'video', starterName: '김철수' });
    await eventually(() => h.store.getState().groupCall.incoming !== null, 'ringing');
    expect(h.store.getState().groupCall.incoming).to.deep.equal({ chatRoomId: ROOM, callId: CALL, media: 'video', starterName: '김철수' });
    h.store.dispatch(groupCallActions.incomingDismissed());
    expect(h.store.getState().groupCall.incoming).to.equal(null);
  });

  it("follows the open room's call: its state on opening, then the room's events until it ends", async () => {
    const state = { active: true, callId: CALL, chatRoomId: ROOM, media: 'audio', startedAt: '2026-11-26T10:00:00Z', participants: [{ userId: 2, name: 'Kim', muted: false, camera: false, screen: false }] };
    h.http.route(`GET ${api.groupCall}`, () => state);
    h.store.dispatch(groupCallActions.roomWatched(ROOM));
    await eventually(() => h.store.getState().groupCall.byRoom[ROOM] !== undefined, 'state loaded');
    expect(h.http.requests.at(-1)?.query).to.deep.equal({ chatRoomId: ROOM });
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { ...state, type: 'groupCall', active: undefined, participants: [...state.participants, { userId: 3, name: 'Lee', muted: true, camera: false, screen: false }] });
    await eventually(() => h.store.getState().groupCall.byRoom[ROOM]?.participants.length === 2, 'second participant');
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'groupCallEnded', chatRoomId: ROOM, callId: CALL });
    await eventually(() => h.store.getState().groupCall.byRoom[ROOM] === undefined, 'call gone');
  });

  it('follows the room on screen only: another room replaces it, and none is followed once it leaves', async () => {
    h.http.route(`GET ${api.groupCall}`, () => ({ active: false }));
    h.store.dispatch(groupCallActions.roomWatched(ROOM));
    await eventually(() => h.stomp.subscriptions.has(topics.chatRoomEvents(ROOM)), 'first room followed');
    h.store.dispatch(groupCallActions.roomWatched(ROOM + 1));
    // The first room's page unmounts after the second's mounted: that must not stop the second.
    h.store.dispatch(groupCallActions.roomUnwatched(ROOM));
    await eventually(() => h.stomp.subscriptions.has(topics.chatRoomEvents(ROOM + 1)) && !h.stomp.subscriptions.has(topics.chatRoomEvents(ROOM)), 'second room followed instead');
    h.store.dispatch(groupCallActions.roomUnwatched(ROOM + 1));
    await eventually(() => !h.stomp.subscriptions.has(topics.chatRoomEvents(ROOM + 1)), 'no room followed');
  });

  it('starts a call: publishes its media, answers each subscribe offer, trickles candidates both ways, and leaves', async () => {
    const session = await joinedCall(h);
    expect(h.stomp.sentTo(app.groupCallStart)).to.deep.equal([{ chatRoomId: ROOM, media: 'audio' }]);
    expect(h.groupRtc.opened).to.deep.equal([{ video: false, iceServers: ICE }]);
    expect(h.stomp.sentTo(app.groupCallSignal)[0]).to.deep.equal({ chatRoomId: ROOM, callId: CALL, kind: 'publish', sdp: 'v=0 publish-offer' });
    await eventually(() => h.stomp.sentTo(app.groupCallMediaState).length === 1, 'media state said');
    expect(h.stomp.sentTo(app.groupCallMediaState)[0]).to.deep.equal({ chatRoomId: ROOM, callId: CALL, muted: false, camera: false, screen: false });

    h.stomp.deliver(signalQueue, { kind: 'publish-answer', callId: CALL, sdp: 'v=0 janus-answer' });
    await eventually(() => session.publishAnswers.length === 1, 'answer applied');
    const streams = [{ mid: '0', userId: 2, kind: 'audio' }];
    h.stomp.deliver(signalQueue, { kind: 'subscribe-offer', callId: CALL, sdp: 'v=0 janus-offer', streams });
    await eventually(() => h.stomp.sentTo(app.groupCallSignal).length === 2, 'subscribe answer sent');
    expect(session.subscribeOffers).to.deep.equal([{ sdp: 'v=0 janus-offer', streams }]);
    expect(h.stomp.sentTo(app.groupCallSignal)[1]).to.deep.equal({ chatRoomId: ROOM, callId: CALL, kind: 'subscribe-answer', sdp: 'v=0 subscribe-answer' });

    h.stomp.deliver(signalQueue, { kind: 'candidate', callId: CALL, target: 'subscriber', candidate: { candidate: 'candidate:1 1 udp 1 10.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 } });
    await eventually(() => session.candidates.length === 1, 'candidate applied');
    session.emit({ type: 'candidate', target: 'publisher', candidate: { candidate: 'candidate:2', sdpMid: '0', sdpMLineIndex: 0 } });
    await eventually(() => h.stomp.sentTo(app.groupCallSignal).length === 3, 'own candidate sent');
    expect(h.stomp.sentTo(app.groupCallSignal)[2]).to.deep.include({ kind: 'candidate', target: 'publisher', callId: CALL });

    session.emit({ type: 'state', target: 'publisher', state: 'connected' });
    await eventually(() => h.store.getState().groupCall.active?.phase === 'connected', 'connected');

    h.store.dispatch(groupCallActions.leaveRequested());
    await eventually(() => h.store.getState().groupCall.active === null, 'left');
    expect(h.stomp.sentTo(app.groupCallLeave)).to.deep.equal([{ chatRoomId: ROOM, callId: CALL }]);
    expect(session.closed).to.equal(true);
  });

  it('leaves when 나가기 is pressed while a subscribe offer is still being applied', async () => {
    const session = await joinedCall(h);
    let release = () => {};
    session.offerGate = new Promise<void>((resolve) => (release = resolve));
    h.stomp.deliver(signalQueue, { kind: 'subscribe-offer', callId: CALL, sdp: 'v=0 janus-offer', streams: [{ mid: '0', userId: 2, kind: 'audio' }] });
    await eventually(() => session.subscribeOffers.length === 1, 'offer being applied');
    h.store.dispatch(groupCallActions.leaveRequested());
    release();
    await eventually(() => h.store.getState().groupCall.active === null, 'left');
    expect(h.stomp.sentTo(app.groupCallLeave)).to.deep.equal([{ chatRoomId: ROOM, callId: CALL }]);
  });

  it('ignores signals of another call', async () => {
    const session = await joinedCall(h);
    h.stomp.deliver(signalQueue, { kind: 'publish-answer', callId: 'another', sdp: 'v=0 x' });
    h.stomp.deliver(signalQueue, { kind: 'publish-answer', callId: CALL, sdp: 'v=0 mine' });
    await eventually(() => session.publishAnswers.length === 1, 'answer applied');
    expect(session.publishAnswers).to.deep.equal(['v=0 mine']);
  });

  it("says mute and the camera to the others", async () => {
    const session = await joinedCall(h);
    h.store.dispatch(groupCallActions.muteToggled());
    await eventually(() => h.stomp.sentTo(app.groupCallMediaState).length >= 2, 'mute said');
    expect(session.media.muted).to.equal(true);
    expect(h.stomp.sentTo(app.groupCallMediaState).at(-1)).to.deep.include({ muted: true, camera: false });
    h.store.dispatch(groupCallActions.cameraToggled());
    await eventually(() => h.store.getState().groupCall.active?.camera === true, 'camera on');
    expect(h.stomp.sentTo(app.groupCallMediaState).at(-1)).to.deep.include({ muted: true, camera: true });
  });

  it("is told '통화 인원이 가득 찼습니다.' when the call is full, and sends no leave", async () => {
    await eventually(() => h.stomp.subscriptions.has(queues.call('group-incoming', ME)), 'ring queue subscribed');
    h.store.dispatch(groupCallActions.joinRequested({ chatRoomId: ROOM, media: 'audio', callId: CALL }));
    await eventually(() => h.stomp.sentTo(app.groupCallJoin).length === 1, 'join sent');
    h.stomp.deliver(signalQueue, { kind: 'refused', callId: CALL, chatRoomId: ROOM, reason: 'full', message: '통화 인원이 가득 찼습니다.' });
    await eventually(() => h.store.getState().groupCall.active === null, 'refused');
    expect(h.alerts).to.deep.equal(['통화 인원이 가득 찼습니다.']);
    expect(h.stomp.sentTo(app.groupCallLeave)).to.deep.equal([]);
    expect(h.groupRtc.opened).to.deep.equal([]);
  });

  it('keeps the reason when group calls are unavailable, so the button can say it', async () => {
    await eventually(() => h.stomp.subscriptions.has(queues.call('group-incoming', ME)), 'ring queue subscribed');
    h.store.dispatch(groupCallActions.joinRequested({ chatRoomId: ROOM, media: 'video' }));
    await eventually(() => h.stomp.sentTo(app.groupCallStart).length === 1, 'start sent');
    h.stomp.deliver(signalQueue, { kind: 'refused', callId: null, chatRoomId: ROOM, reason: 'unavailable', message: '' });
    await eventually(() => h.store.getState().groupCall.unavailable !== null, 'unavailable kept');
    expect(h.store.getState().groupCall.unavailable).to.equal('지금은 그룹통화를 할 수 없습니다.');
  });

  it('ends with its text when the media server is lost, closing everything', async () => {
    const session = await joinedCall(h);
    h.stomp.deliver(signalQueue, { kind: 'ended', callId: CALL, chatRoomId: ROOM, reason: 'media-server-lost', message: '' });
    await eventually(() => h.store.getState().groupCall.active === null, 'ended');
    expect(session.closed).to.equal(true);
    expect(h.alerts).to.deep.equal(['통화 서버와 연결이 끊겨 그룹통화가 종료되었습니다.']);
    expect(h.stomp.sentTo(app.groupCallLeave)).to.deep.equal([]);
  });

  it('leaves at once when the microphone is refused', async () => {
    h.groupRtc.microphoneDenied = true;
    await eventually(() => h.stomp.subscriptions.has(queues.call('group-incoming', ME)), 'ring queue subscribed');
    h.store.dispatch(groupCallActions.joinRequested({ chatRoomId: ROOM, media: 'audio' }));
    await eventually(() => h.stomp.sentTo(app.groupCallStart).length === 1, 'start sent');
    h.stomp.deliver(signalQueue, { kind: 'joined', callId: CALL, chatRoomId: ROOM, media: 'audio', iceServers: ICE });
    await eventually(() => h.store.getState().groupCall.active === null, 'left');
    expect(h.stomp.sentTo(app.groupCallLeave)).to.deep.equal([{ chatRoomId: ROOM, callId: CALL }]);
    expect(h.alerts).to.have.length(1);
  });

  it('highlights who speaks loudest', async () => {
    const session = await joinedCall(h);
    session.levels = [{ userId: 2, level: 0.02 }, { userId: 3, level: 0.4 }];
    await eventually(() => h.store.getState().groupCall.active?.speakingUserId === 3, 'speaker found');
  });

  describe('after a reload', () => {
    const kept = JSON.stringify({ chatRoomId: ROOM, callId: CALL, media: 'audio' });
    const stateWith = (participants: object[], callId = CALL) => ({ active: true, callId, chatRoomId: ROOM, media: 'audio', startedAt: '2026-11-26T10:00:00Z', participants });
    const meAway = { userId: ME, name: '나나', muted: false, camera: false, screen: false, reconnecting: true };
    const kim = { userId: 2, name: 'Kim', muted: false, camera: false, screen: false };
    /** A page that starts with the call kept in its tab, against the server's answer for the room. */
    function reloaded(answer: () => unknown, connected = true, value = kept): Harness {
      h.stop();
      const storage = memoryStorage();
      storage.setItem(groupCallKey(ME), value);
      return harness({ connected, storage, groupCallAnswer: answer });
    }

    it('remembers the call in the tab while in it, and forgets it on leaving', async () => {
      await joinedCall(h);
      expect(JSON.parse(h.storage.getItem(groupCallKey(ME))!)).to.deep.equal({ chatRoomId: ROOM, callId: CALL, media: 'audio' });
      h.store.dispatch(groupCallActions.leaveRequested());
      await eventually(() => h.store.getState().groupCall.active === null, 'left');
      expect(h.storage.getItem(groupCallKey(ME))).to.equal(null);
    });

    it('forgets the call when the server ends it', async () => {
      await joinedCall(h);
      h.stomp.deliver(signalQueue, { kind: 'ended', callId: CALL, chatRoomId: ROOM, reason: 'ended', message: '' });
      await eventually(() => h.store.getState().groupCall.active === null, 'ended');
      expect(h.storage.getItem(groupCallKey(ME))).to.equal(null);
    });

    it('joins the call again by itself while this user is listed in it (reconnecting), once the connection is up', async () => {
      h = reloaded(() => stateWith([meAway, kim]), false);
      await eventually(() => h.store.getState().groupCall.byRoom[ROOM] !== undefined, 'state loaded');
      // The participant's reconnecting mark reaches the grid's state.
      expect(h.store.getState().groupCall.byRoom[ROOM]?.participants[0]).to.deep.include({ userId: ME, reconnecting: true });
      expect(h.http.requests.at(-1)?.query).to.deep.equal({ chatRoomId: ROOM });
      expect(h.stomp.sentTo(app.groupCallJoin)).to.deep.equal([]);
      h.stomp.connect();
      await eventually(() => h.stomp.sentTo(app.groupCallJoin).length === 1, 'join sent');
      expect(h.stomp.sentTo(app.groupCallJoin)).to.deep.equal([{ chatRoomId: ROOM, callId: CALL }]);
      expect(h.stomp.sentTo(app.groupCallStart)).to.deep.equal([]);
      expect(h.store.getState().groupCall.active).to.deep.include({ chatRoomId: ROOM, callId: CALL, media: 'audio', phase: 'joining' });
      h.stomp.deliver(signalQueue, { kind: 'joined', callId: CALL, chatRoomId: ROOM, media: 'audio', iceServers: ICE });
      await eventually(() => h.stomp.sentTo(app.groupCallSignal).length === 1, 'publish offer sent');
      expect(h.storage.getItem(groupCallKey(ME))).to.not.equal(null);
    });

    it('joins again when still listed though not yet marked reconnecting (the server had not seen the old page go)', async () => {
      h = reloaded(() => stateWith([{ ...meAway, reconnecting: undefined }, kim]));
      await eventually(() => h.stomp.sentTo(app.groupCallJoin).length === 1, 'join sent');
      expect(h.stomp.sentTo(app.groupCallJoin)).to.deep.equal([{ chatRoomId: ROOM, callId: CALL }]);
    });

    for (const [what, answer] of [
      ['the call is over', { active: false }],
      ['the grace passed: this user is no longer listed', stateWith([kim])],
      ['another call is on in the room', stateWith([meAway, kim], 'call-other')],
    ] as const) {
      it(`does not join again when ${what}, and forgets the call`, async () => {
        h = reloaded(() => answer);
        await eventually(() => h.storage.getItem(groupCallKey(ME)) === null, 'forgotten');
        expect(h.http.requests.filter((r) => r.path === api.groupCall)).to.have.length(1);
        expect(h.stomp.sentTo(app.groupCallJoin)).to.deep.equal([]);
        expect(h.store.getState().groupCall.active).to.equal(null);
      });
    }

    it('does not join again when the room refuses this user (no longer a member), and forgets the call', async () => {
      h = reloaded(() => refuse(403));
      await eventually(() => h.storage.getItem(groupCallKey(ME)) === null, 'forgotten');
      expect(h.stomp.sentTo(app.groupCallJoin)).to.deep.equal([]);
      expect(h.errors.some((e) => e.startsWith('group call rejoin'))).to.equal(true);
    });

    it('ignores a kept value that is not a call, and asks nothing', async () => {
      h = reloaded(() => stateWith([meAway, kim]), true, '{"chatRoomId":"x"}');
      await eventually(() => h.storage.getItem(groupCallKey(ME)) === null, 'forgotten');
      expect(h.http.requests.filter((r) => r.path === api.groupCall)).to.deep.equal([]);
      expect(h.stomp.sentTo(app.groupCallJoin)).to.deep.equal([]);
    });
  });
});
