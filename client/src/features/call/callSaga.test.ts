import { expect } from 'chai';
import { CALL_SIGNALS, app, queues } from '@common/destinations';
import { eventually, settle } from '../../app/fakeServices';
import { koCall } from '../../i18n/koCall';
import { createCallTestStore } from '../../app/callFakes.test-support';
import { missedCallKey } from './missedCallSaga';
import { callActions } from './callSlice';

const ME = 1;
const KIM = { userId: 2, name: 'Kim' };
const LEE = { userId: 3, name: 'Lee' };

type Harness = ReturnType<typeof createCallTestStore>;

async function listening(harness: Harness): Promise<void> {
  harness.store.dispatch(callActions.listenRequested({ userId: ME }));
  await eventually(() => harness.stomp.subscriptions.size === CALL_SIGNALS.length, 'subscribed to every call queue');
}

const phase = (h: Harness) => h.store.getState().call.phase;

/** Caller side up to the point where the offer has gone out. */
async function callKimUntilOffer(h: Harness): Promise<void> {
  await listening(h);
  h.store.dispatch(callActions.callRequested(KIM));
  await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
  h.stomp.deliver(queues.call('accepted', ME), { userId: KIM.userId });
  await eventually(() => h.stomp.sentTo(app.callOffer).length === 1, 'offer sent');
}

/** Callee side: Kim rings and the user accepts. */
async function answerKim(h: Harness): Promise<void> {
  await listening(h);
  h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
  await eventually(() => phase(h) === 'incoming', 'incoming overlay state');
  h.store.dispatch(callActions.acceptClicked());
  await eventually(() => h.rtc.peers.length === 1, 'peer connection created');
}

describe('call saga', () => {
  let h: Harness;
  beforeEach(() => {
    h = createCallTestStore();
  });
  afterEach(() => h.stop());

  describe('as the caller', () => {
    it('checks the microphone, sends initiate with both ids and waits with the call connecting', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      expect(h.rtc.microphones).to.have.length(1);
      expect(h.stomp.sentTo(app.callInitiate)).to.deep.equal([{ targetUserId: KIM.userId, userId: ME }]);
      expect(h.store.getState().call).to.include({ phase: 'outgoing', role: 'caller' });
      expect(h.store.getState().call.peer).to.deep.equal(KIM);
      expect(h.stomp.sentTo(app.callOffer)).to.deep.equal([]);
    });

    it('creates and sends the offer only after the peer accepts, with ICE servers from the server', async () => {
      await callKimUntilOffer(h);
      expect(h.http.requests.map((r) => r.path)).to.include('/api/call/ice-servers');
      expect(h.rtc.peers[0].iceServers).to.deep.equal([{ urls: 'stun:127.0.0.1:3478' }]);
      expect(h.stomp.sentTo(app.callOffer)).to.deep.equal([{ targetUserId: KIM.userId, sdp: { type: 'offer', sdp: 'v=0 fake-offer' } }]);
      expect(phase(h)).to.equal('connecting');
    });

    it('sends each local candidate to the peer', async () => {
      await callKimUntilOffer(h);
      const candidate = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
      h.rtc.peers[0].emit({ type: 'candidate', candidate });
      h.rtc.peers[0].emit({ type: 'candidate', candidate: { ...candidate, candidate: 'candidate:2' } });
      await eventually(() => h.stomp.sentTo(app.callIceCandidate).length === 2, 'both candidates sent');
      expect(h.stomp.sentTo(app.callIceCandidate)[0]).to.deep.equal({ targetUserId: KIM.userId, candidate });
    });

    it('applies the answer, shows 통화 중 once connected and runs the timer', async () => {
      await callKimUntilOffer(h);
      h.stomp.deliver(queues.call('answer', ME), { userId: KIM.userId, sdp: { type: 'answer', sdp: 'v=0 remote-answer' } });
      await eventually(() => h.rtc.peers[0].hasRemoteDescription, 'answer applied');
      h.rtc.peers[0].emit({ type: 'connectionState', state: 'connected' });
      await eventually(() => phase(h) === 'connected', 'connected');
      await eventually(() => h.store.getState().call.elapsedSeconds >= 1, 'the timer ticked');
    });

    it('on hang-up closes the connection, stops the microphone, sends hangup and goes to /chat-list', async () => {
      await callKimUntilOffer(h);
      h.store.dispatch(callActions.hangUpClicked());
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.rtc.peers[0].closed).to.equal(true);
      expect(h.rtc.microphones[0].stopped).to.equal(true);
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([{ targetUserId: KIM.userId }]);
      expect(h.navigations).to.deep.equal(['/chat-list']);
    });

    it('on a reject alerts that the peer declined, goes to /call and sends no hangup', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      h.stomp.deliver(queues.call('rejected', ME), { userId: KIM.userId, reason: 'rejected' });
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.alerts).to.deep.equal(['상대방이 통화를 거절했습니다.']);
      expect(h.navigations).to.deep.equal(['/call']);
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
      expect(h.rtc.microphones[0].stopped).to.equal(true);
    });

    it('tells the user when the peer is busy', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      h.stomp.deliver(queues.call('rejected', ME), { userId: KIM.userId, reason: 'busy' });
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.alerts).to.deep.equal([koCall.peerBusy]);
    });

    it('clears the ringing state quietly when the unanswered call is hung up with no reason', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId });
      await eventually(() => phase(h) === 'idle', 'ringing cleared');
      expect(h.navigations).to.deep.equal([]);
      expect(h.alerts).to.deep.equal([]);
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
    });

    for (const [reason, text] of [['timeout', '상대방이 응답하지 않습니다.'], ['unavailable', '상대방과 연결할 수 없습니다. 잠시 후 다시 걸어주세요.']] as const) {
      it(`says why when the server ends the unanswered call (${reason}) and goes back to /call`, async () => {
        await listening(h);
        h.store.dispatch(callActions.callRequested(KIM));
        await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
        h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId, reason });
        await eventually(() => phase(h) === 'idle', 'call ended');
        expect(h.alerts).to.deep.equal([text]);
        expect(h.navigations).to.deep.equal(['/call']);
        expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
      });
    }

    it('does not start the call when the microphone is denied', async () => {
      h.rtc.microphoneDenied = true;
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.alerts.length === 1, 'alerted');
      expect(h.alerts).to.deep.equal(['통화를 위해 마이크 권한을 확인해주세요.']);
      await eventually(() => phase(h) === 'idle', 'back to idle');
      expect(h.stomp.published).to.deep.equal([]);
    });

    it('alerts a call failure and hangs up when the offer cannot be made', async () => {
      h.rtc.failOffer = true;
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      h.stomp.deliver(queues.call('accepted', ME), { userId: KIM.userId });
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.alerts).to.deep.equal(['통화 실패. 마이크 권한을 확인해주세요.']);
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([{ targetUserId: KIM.userId }]);
      expect(h.navigations).to.deep.equal(['/chat-list']);
      expect(h.rtc.peers[0].closed).to.equal(true);
    });

    it('starts no second call while one is active, and ignores a third user calling in', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      h.store.dispatch(callActions.callRequested(LEE));
      h.stomp.deliver(queues.call('incoming', ME), { userId: LEE.userId, name: LEE.name });
      await settle();
      expect(h.stomp.sentTo(app.callInitiate)).to.have.length(1);
      expect(h.store.getState().call.peer).to.deep.equal(KIM);
      expect(phase(h)).to.equal('outgoing');
    });

    it('ignores an answer that arrives in the wrong signalling state', async () => {
      await callKimUntilOffer(h);
      h.stomp.deliver(queues.call('answer', ME), { userId: KIM.userId, sdp: { type: 'answer', sdp: 'v=0 first' } });
      await eventually(() => h.rtc.peers[0].hasRemoteDescription, 'first answer applied');
      h.stomp.deliver(queues.call('answer', ME), { userId: KIM.userId, sdp: { type: 'answer', sdp: 'v=0 second' } });
      await eventually(() => h.errors.some((e) => e.includes('answer in signalling state stable')), 'skip logged');
      expect(h.rtc.peers[0].remote?.sdp).to.equal('v=0 first');
      expect(phase(h)).to.equal('connecting');
    });
  });

  describe('as the callee', () => {
    it('rings with the caller name and, on accept, checks the microphone and sends accept', async () => {
      await answerKim(h);
      expect(h.rtc.microphones).to.have.length(1);
      expect(h.stomp.sentTo(app.callAccept)).to.deep.equal([{ targetUserId: KIM.userId, userId: ME }]);
      expect(h.store.getState().call).to.include({ phase: 'connecting', role: 'callee' });
      expect(h.store.getState().call.peer).to.deep.equal(KIM);
    });

    it('answers the offer and adds candidates that arrived before it once the offer is applied', async () => {
      await answerKim(h);
      const early = { candidate: 'candidate:early', sdpMid: '0', sdpMLineIndex: 0 };
      h.stomp.deliver(queues.call('ice-candidate', ME), { userId: KIM.userId, candidate: early });
      await settle();
      expect(h.rtc.peers[0].added).to.deep.equal([]);
      h.stomp.deliver(queues.call('offer', ME), { userId: KIM.userId, sdp: { type: 'offer', sdp: 'v=0 remote-offer' } });
      await eventually(() => h.stomp.sentTo(app.callAnswer).length === 1, 'answer sent');
      expect(h.stomp.sentTo(app.callAnswer)).to.deep.equal([{ targetUserId: KIM.userId, sdp: { type: 'answer', sdp: 'v=0 fake-answer' } }]);
      expect(h.rtc.peers[0].added).to.deep.equal([{ ...early, usernameFragment: null }]);
      const late = { candidate: 'candidate:late', sdpMid: '0', sdpMLineIndex: 0 };
      h.stomp.deliver(queues.call('ice-candidate', ME), { userId: KIM.userId, candidate: late });
      await eventually(() => h.rtc.peers[0].added.length === 2, 'late candidate added at once');
    });

    it('skips an invalid candidate with a log line and keeps the call', async () => {
      await answerKim(h);
      h.stomp.deliver(queues.call('offer', ME), { userId: KIM.userId, sdp: { type: 'offer', sdp: 'v=0 remote-offer' } });
      await eventually(() => h.stomp.sentTo(app.callAnswer).length === 1, 'answer sent');
      h.stomp.deliver(queues.call('ice-candidate', ME), { userId: KIM.userId, candidate: 42 });
      await eventually(() => h.errors.some((e) => e.includes('not an ICE candidate')), 'skip logged');
      expect(phase(h)).to.equal('connecting');
    });

    it('restarts ICE when the connection fails, and hangs up when the restarts fail too', async () => {
      await answerKim(h);
      h.stomp.deliver(queues.call('offer', ME), { userId: KIM.userId, sdp: { type: 'offer', sdp: 'v=0 remote-offer' } });
      await eventually(() => h.stomp.sentTo(app.callAnswer).length === 1, 'answer sent');
      for (let restart = 1; restart <= 2; restart += 1) {
        h.rtc.peers[0].emit({ type: 'connectionState', state: 'failed' });
        await eventually(() => h.stomp.sentTo(app.callOffer).length === restart, `ICE restart offer ${restart}`);
        expect(h.rtc.peers[0].offerOptions.at(-1)).to.deep.equal({ iceRestart: true });
        expect(phase(h)).to.equal('connecting');
        h.stomp.deliver(queues.call('answer', ME), { userId: KIM.userId, sdp: { type: 'answer', sdp: 'v=0 restart-answer' } });
        await eventually(() => h.rtc.peers[0].signalingState === 'stable', 'restart answered');
      }
      h.rtc.peers[0].emit({ type: 'connectionState', state: 'failed' });
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([{ targetUserId: KIM.userId }]);
      expect(h.navigations).to.deep.equal(['/chat-list']);
      expect(h.rtc.microphones[0].stopped).to.equal(true);
    });

    it('ends the call without echoing a hangup when the peer hangs up', async () => {
      await answerKim(h);
      h.rtc.peers[0].emit({ type: 'iceConnectionState', state: 'completed' });
      await eventually(() => phase(h) === 'connected', 'connected');
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: ME });
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
      expect(h.navigations).to.deep.equal(['/chat-list']);
      expect(h.rtc.peers[0].closed).to.equal(true);
    });

    it('sends reject and closes the overlay when the user rejects', async () => {
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => phase(h) === 'incoming', 'ringing');
      h.store.dispatch(callActions.rejectClicked());
      await eventually(() => phase(h) === 'idle', 'overlay closed');
      expect(h.stomp.sentTo(app.callReject)).to.deep.equal([{ targetUserId: KIM.userId, userId: ME }]);
      expect(h.rtc.microphones).to.deep.equal([]);
      expect(h.navigations).to.deep.equal([]);
    });

    it('only closes the incoming overlay when the caller hangs up before an answer', async () => {
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => phase(h) === 'incoming', 'ringing');
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: ME });
      await eventually(() => phase(h) === 'idle', 'overlay closed');
      expect(h.stomp.published).to.deep.equal([]);
      expect(h.navigations).to.deep.equal([]);
    });

    it('alerts and rejects when the microphone is denied on accept', async () => {
      h.rtc.microphoneDenied = true;
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => phase(h) === 'incoming', 'ringing');
      h.store.dispatch(callActions.acceptClicked());
      await eventually(() => phase(h) === 'idle', 'overlay closed');
      expect(h.alerts).to.deep.equal(['통화를 위해 마이크 권한을 확인해주세요.']);
      expect(h.stomp.sentTo(app.callAccept)).to.deep.equal([]);
      expect(h.stomp.sentTo(app.callReject)).to.deep.equal([{ targetUserId: KIM.userId, userId: ME }]);
    });

    it('hangs up when 통화 종료 is pressed while a candidate is still being applied', async () => {
      await answerKim(h);
      h.stomp.deliver(queues.call('offer', ME), { userId: KIM.userId, sdp: { type: 'offer', sdp: 'v=0 remote-offer' } });
      await eventually(() => h.stomp.sentTo(app.callAnswer).length === 1, 'answer sent');
      const peer = h.rtc.peers[0];
      let release = () => {};
      peer.candidateGate = new Promise<void>((resolve) => (release = resolve));
      h.stomp.deliver(queues.call('ice-candidate', ME), { userId: KIM.userId, candidate: { candidate: 'candidate:slow', sdpMid: '0', sdpMLineIndex: 0 } });
      await eventually(() => peer.adding === 1, 'the candidate is being applied');
      h.store.dispatch(callActions.hangUpClicked());
      release();
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([{ targetUserId: KIM.userId }]);
    });

    it('sends hangup when the listener stops in the middle of a call', async () => {
      await answerKim(h);
      h.store.dispatch(callActions.listenStopped());
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([{ targetUserId: KIM.userId }]);
      expect(h.stomp.subscriptions.size).to.equal(0);
      expect(h.navigations).to.deep.equal([]);
    });
  });

  describe('carried on across the app', () => {
    it('mutes and unmutes the microphone from the slice flag, and a new call starts unmuted', async () => {
      await answerKim(h);
      h.store.dispatch(callActions.muteToggled());
      await eventually(() => h.rtc.microphones[0].muted, 'microphone muted');
      expect(h.store.getState().call.muted).to.equal(true);
      h.store.dispatch(callActions.muteToggled());
      await eventually(() => !h.rtc.microphones[0].muted, 'microphone live again');
      h.store.dispatch(callActions.muteToggled());
      h.store.dispatch(callActions.hangUpClicked());
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.store.getState().call.muted).to.equal(false);
    });

    it('mutes the microphone when 음소거 is pressed while the camera is still turning on', async () => {
      await answerKim(h);
      const microphone = h.rtc.microphones[0];
      let release = () => {};
      microphone.cameraGate = new Promise<void>((resolve) => (release = resolve));
      h.store.dispatch(callActions.cameraToggled());
      await settle();
      h.store.dispatch(callActions.muteToggled());
      release();
      await eventually(() => microphone.cameraOn, 'camera on');
      await eventually(() => microphone.muted, 'microphone muted as the button says');
      expect(h.store.getState().call.muted).to.equal(true);
    });

    it('mutes a caller whose call still rings, before any connection exists', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.stomp.sentTo(app.callInitiate).length === 1, 'initiate sent');
      h.store.dispatch(callActions.muteToggled());
      await eventually(() => h.rtc.microphones[0].muted, 'microphone muted');
    });

    it('leaves the user on the screen they moved to when the call ends away from /call', async () => {
      await callKimUntilOffer(h);
      h.location.path = '/chat-room';
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId });
      await eventually(() => phase(h) === 'idle', 'call ended');
      expect(h.navigations).to.deep.equal([]);
      expect(h.stomp.sentTo(app.callHangup)).to.deep.equal([]);
    });

    it("remembers a call that rang out for the missed-call line until it is dismissed", async () => {
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => phase(h) === 'incoming', 'ringing');
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId, reason: 'timeout' });
      await eventually(() => phase(h) === 'idle', 'overlay closed');
      expect(h.store.getState().call.missedCall).to.deep.equal(KIM);
      expect(h.stomp.published).to.deep.equal([]);
      expect(JSON.parse(h.storage.getItem(missedCallKey(ME)) ?? 'null')).to.deep.equal(KIM);
      h.store.dispatch(callActions.missedCallDismissed());
      expect(h.store.getState().call.missedCall).to.equal(null);
      expect(h.storage.getItem(missedCallKey(ME))).to.equal(null);
    });

    it('shows a missed call again after a reload, until it is dismissed', async () => {
      h.storage.setItem(missedCallKey(ME), JSON.stringify(KIM));
      await listening(h);
      expect(h.store.getState().call.missedCall).to.deep.equal(KIM);
      h.storage.setItem(missedCallKey(ME), '{not json');
      h.store.dispatch(callActions.listenStopped());
      expect(h.store.getState().call.missedCall).to.equal(null);
      await listening(h);
      expect(h.store.getState().call.missedCall).to.equal(null);
      expect(h.storage.getItem(missedCallKey(ME))).to.equal(null);
    });

    it('counts no missed call when the caller gives up before the timeout', async () => {
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => phase(h) === 'incoming', 'ringing');
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId });
      await eventually(() => phase(h) === 'idle', 'overlay closed');
      expect(h.store.getState().call.missedCall).to.equal(null);
    });
  });

  describe('ring tones', () => {
    it('rings the callee until the choice, and sounds no tone once the call is accepted', async () => {
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => h.store.getState().call.ring !== null, 'ring state set');
      expect(h.ringer.playing).to.equal('ringing');
      expect(h.store.getState().call.ring).to.deep.equal({ tone: 'ringing', blocked: false });
      h.store.dispatch(callActions.acceptClicked());
      await eventually(() => h.rtc.peers.length === 1, 'peer connection created');
      expect(h.ringer.playing).to.equal(null);
      expect(h.store.getState().call.ring).to.equal(null);
    });

    it('plays the ring-back tone to the caller until the peer answers', async () => {
      await listening(h);
      h.store.dispatch(callActions.callRequested(KIM));
      await eventually(() => h.ringer.playing === 'ringback', 'ring-back sounding');
      h.stomp.deliver(queues.call('accepted', ME), { userId: KIM.userId });
      await eventually(() => h.stomp.sentTo(app.callOffer).length === 1, 'offer sent');
      expect(h.ringer.playing).to.equal(null);
    });

    it('silences the ring-back before telling the caller the peer rejected', async () => {
      let playingAtAlert: unknown = 'not alerted';
      const s = createCallTestStore();
      try {
        await listening(s);
        s.store.dispatch(callActions.callRequested(KIM));
        await eventually(() => s.ringer.playing === 'ringback', 'ring-back sounding');
        const alerts = s.alerts;
        alerts.push = (...messages: string[]) => {
          playingAtAlert = s.ringer.playing;
          return Array.prototype.push.apply(alerts, messages);
        };
        s.stomp.deliver(queues.call('rejected', ME), { userId: KIM.userId, reason: 'rejected' });
        await eventually(() => s.store.getState().call.phase === 'idle', 'call ended');
        expect(s.alerts).to.deep.equal(['상대방이 통화를 거절했습니다.']);
        expect(playingAtAlert).to.equal(null);
      } finally {
        s.stop();
      }
    });

    it('says the ring is blocked by the browser until the first tap, then rings', async () => {
      h.ringer.blocked = true;
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => h.store.getState().call.ring !== null, 'ring state set');
      expect(h.store.getState().call.ring).to.deep.equal({ tone: 'ringing', blocked: true });
      h.ringer.unblock();
      await eventually(() => h.store.getState().call.ring?.blocked === false, 'ringing after the tap');
      expect(h.ringer.playing).to.equal('ringing');
    });

    it('stops ringing when the caller gives up', async () => {
      await listening(h);
      h.stomp.deliver(queues.call('incoming', ME), { userId: KIM.userId, name: KIM.name });
      await eventually(() => h.ringer.playing === 'ringing', 'ringing');
      h.stomp.deliver(queues.call('hangup', ME), { userId: KIM.userId, targetUserId: KIM.userId });
      await eventually(() => phase(h) === 'idle', 'overlay closed');
      expect(h.ringer.playing).to.equal(null);
    });
  });
});
