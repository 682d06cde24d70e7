import { expect } from 'chai';
import { app, CALL_SIGNALS, queues } from '@common/destinations';
import { eventually } from '../../app/fakeServices';
import { createCallTestStore } from '../../app/callFakes.test-support';
import { activeCallKey } from './callRules';
import { callActions } from './callSlice';

const ME = 1;
const KIM = { userId: 2, name: 'Kim' };

type Harness = ReturnType<typeof createCallTestStore>;

async function listening(h: Harness): Promise<void> {
  h.store.dispatch(callActions.listenRequested({ userId: ME }));
  await eventually(() => h.stomp.subscriptions.size === CALL_SIGNALS.length, 'subscribed to every call queue');
}

const call = (h: Harness) => h.store.getState().call;

/** The caller's video call up to the first offer. */
async function videoCallUntilOffer(h: Harness): Promise<void> {
  await listening(h);
  h.store.dispatch(callActions.callRequested(KIM, 'video'));
  await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
  h.stomp.deliver(queues.call('accepted', ME), { userId: KIM.userId, media: 'video', callId: 'c1' });
  await eventually(() => h.stomp.sentTo(app.callOffer).length === 1, 'offer sent');
}

describe('call saga: video, ringing, media-state and survival', () => {
  let h: Harness;
  beforeEach(() => {
    h = createCallTestStore();
  });
  afterEach(() => h.stop());

  it('starts a video call with the camera and media "video", and reads 전화 거는 중… once the callee rings', async () => {
    await listening(h);
    h.store.dispatch(callActions.callRequested(KIM, 'video'));
    await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
    expect(h.rtc.opened).to.deep.equal([true]);
    expect(h.stomp.sentTo(app.callInitiate)).to.deep.equal([{ targetUserId: KIM.userId, userId: ME, media: 'video' }]);
    expect(call(h)).to.include({ media: 'video', peerRinging: false, camera: true });
    h.stomp.deliver(queues.call('ringing', ME), { userId: KIM.userId, callId: 'c1' });
    await eventually(() => call(h).peerRinging, 'ringing seen');
  });

  it('leaves media out of a voice call\'s initiate, as the original client does', async () => {
    await listening(h);
    h.store.dispatch(callActions.callRequested(KIM));
    await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
    expect(h.stomp.sentTo(app.callInitiate)).to.deep.equal([{ targetUserId: KIM.userId, userId: ME }]);
    expect(h.rtc.opened).to.deep.equal([false]);
  });

  it('answers an incoming video call with the camera, and tells the peer its media-state once accepted', async () => {
    await listening(h);
    h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name, media: 'video', callId: 'c1' });
    await eventually(() => call(h).phase === 'incoming', 'incoming');
    expect(call(h).media).to.equal('video');
    h.store.dispatch(callActions.acceptClicked());
    await eventually(() => h.stomp.sentTo(app.callMediaState).length === 1, 'media-state sent');
    expect(h.rtc.opened).to.deep.equal([true]);
    expect(h.stomp.sentTo(app.callMediaState)).to.deep.equal([{ targetUserId: KIM.userId, muted: false, camera: true, screen: false }]);
  });

  it('sends media-state on every change: mute, camera off, screen share and its end from the browser', async () => {
    await videoCallUntilOffer(h);
    const sent = () => h.stomp.sentTo(app.callMediaState) as Array<Record<string, unknown>>;
    await eventually(() => sent().length === 1, 'first media-state');
    h.store.dispatch(callActions.muteToggled());
    await eventually(() => sent().length === 2, 'mute told');
    expect(sent()[1]).to.include({ muted: true, camera: true });
    expect(h.rtc.microphones[0].muted).to.equal(true);
    h.store.dispatch(callActions.cameraToggled());
    await eventually(() => sent().length === 3, 'camera off told');
    expect(sent()[2]).to.include({ camera: false });
    h.store.dispatch(callActions.screenShareToggled());
    await eventually(() => sent().length === 4, 'screen told');
    expect(sent()[3]).to.include({ screen: true });
    expect(call(h).screen).to.equal(true);
    h.rtc.microphones[0].endScreenShareFromBrowser();
    await eventually(() => sent().length === 5, 'screen end told');
    expect(sent()[4]).to.include({ screen: false });
  });

  it('shows the peer\'s media-state and its reconnecting', async () => {
    await videoCallUntilOffer(h);
    h.stomp.deliver(queues.call('media-state', ME), { userId: KIM.userId, muted: true, camera: false, screen: true });
    await eventually(() => call(h).peerMedia !== null, 'peer media-state');
    expect(call(h).peerMedia).to.deep.equal({ muted: true, camera: false, screen: true });
    h.stomp.deliver(queues.call('peer-reconnecting', ME), { userId: KIM.userId });
    await eventually(() => call(h).peerReconnecting, 'peer reconnecting');
  });

  it('on resume throws the connection away, builds a new one with the same media and, as caller, offers again', async () => {
    await videoCallUntilOffer(h);
    h.rtc.peers[0].emit({ type: 'connectionState', state: 'connected' });
    await eventually(() => call(h).phase === 'connected', 'connected');
    h.stomp.deliver(queues.call('resume', ME), { userId: KIM.userId, callId: 'c1', media: 'video', role: 'caller' });
    await eventually(() => h.rtc.peers.length === 2, 'a new connection');
    expect(h.rtc.peers[0].closed).to.equal(true);
    expect(h.rtc.peers[1].microphone).to.equal(h.rtc.microphones[0]);
    await eventually(() => h.stomp.sentTo(app.callOffer).length === 2, 'a new offer');
    expect(call(h).phase).to.equal('connecting');
    h.rtc.peers[1].emit({ type: 'connectionState', state: 'connected' });
    await eventually(() => call(h).phase === 'connected', 'connected again');
    expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
  });

  it('as callee on resume waits for the caller\'s new offer and answers it', async () => {
    await videoCallUntilOffer(h);
    h.stomp.deliver(queues.call('resume', ME), { userId: KIM.userId, callId: 'c1', media: 'video', role: 'callee' });
    await eventually(() => h.rtc.peers.length === 2, 'a new connection');
    h.stomp.deliver(queues.call('offer', ME), { userId: KIM.userId, sdp: { type: 'offer', sdp: 'v=0 new-offer' } });
    await eventually(() => h.stomp.sentTo(app.callAnswer).length === 1, 'answered');
    expect(h.stomp.sentTo(app.callOffer)).to.have.length(1);
  });

  it('picks up the call after a reload when the server resumes it, naming the peer kept before the reload', async () => {
    h.storage.setItem(activeCallKey(ME), JSON.stringify(KIM));
    await listening(h);
    h.stomp.deliver(queues.call('resume', ME), { userId: KIM.userId, callId: 'c1', media: 'audio', role: 'caller' });
    await eventually(() => h.stomp.sentTo(app.callOffer).length === 1, 'offer after the reload');
    expect(call(h)).to.deep.include({ phase: 'connecting', role: 'caller', peer: KIM });
    expect(h.stomp.sentTo(app.callInitiate)).to.deep.equal([]);
  });

  it('ends with 연결이 끊겨 통화가 종료되었습니다. when the server gives up on the peer, and dismisses the end screen', async () => {
    await videoCallUntilOffer(h);
    h.location.path = '/chat-room';
    h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: ME, reason: 'connection-lost' });
    await eventually(() => call(h).phase === 'idle', 'ended');
    expect(call(h).ended).to.deep.equal({ peerName: 'Kim', text: '연결이 끊겨 통화가 종료되었습니다.' });
    expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
    expect(h.navigations).to.deep.equal([]);
    expect(h.storage.getItem(activeCallKey(ME))).to.equal(null);
    await eventually(() => call(h).ended === null, 'end screen gone', 6000);
  });

  it('keeps the call when the media path fails while the peer is away: no ICE restart, no hang-up', async () => {
    await videoCallUntilOffer(h);
    h.stomp.deliver(queues.call('peer-reconnecting', ME), { userId: KIM.userId });
    await eventually(() => call(h).peerReconnecting, 'peer reconnecting');
    for (let i = 0; i < 4; i += 1) h.rtc.peers[0].emit({ type: 'connectionState', state: 'failed' });
    h.stomp.deliver(queues.call('resume', ME), { userId: KIM.userId, callId: 'c1', media: 'video', role: 'caller' });
    await eventually(() => h.rtc.peers.length === 2, 'resumed');
    expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
    expect(h.rtc.peers[0].offerOptions.filter((o) => o?.iceRestart)).to.deep.equal([]);
  });
});
