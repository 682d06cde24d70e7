// Video calls through the real UI (docs/spec.md §4 Call): two Chromium users with fake cameras
// and microphones call each other from a two-person room's header over the real server and
// WebRTC. Both sides play the other's video; a voice call turns into a video call; a shared screen
// reaches the other side; a mute is shown to the peer; a reload mid-call resumes the call and
// sound flows again; and the call leaves a record worded for each side in the room.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { koCall } from '../../src/i18n/koCall';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS;

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOT_DIR) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

describe('video calls in the browser', function () {
  const app = useE2eApp({
    fakeMedia: true,
    // Sound without a prior tap (the remote audio is measured), and a fake screen for getDisplayMedia.
    extraArgs: ['--autoplay-policy=no-user-gesture-required', '--auto-select-desktop-capture-source=Entire screen', '--enable-usermedia-screen-capturing'],
  });

  async function signedIn(user: TestUser): Promise<Page> {
    const { page } = await app.openUser();
    await page.setViewportSize({ width: 1000, height: 800 });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return page;
  }

  async function roomOf(owner: TestUser, other: TestUser): Promise<number> {
    const client = await loginClient(app.server, owner);
    const res = await client.post(api.roomCreate, { targetUserId: other.userId, targetUserName: other.name });
    expect(res.status).to.equal(200);
    return (res.body as { chatRoomId: number }).chatRoomId;
  }

  /** Two users in their two-person room, each with the room open. */
  async function twoInARoom(callerName: string, calleeName: string) {
    const callerUser = await createUser(app.server, { name: callerName });
    const calleeUser = await createUser(app.server, { name: calleeName });
    const room = await roomOf(callerUser, calleeUser);
    const caller = await signedIn(callerUser);
    const callee = await signedIn(calleeUser);
    for (const page of [caller, callee]) {
      await page.goto(app.url(`/chat-room?cri=${room}`));
      await page.getByRole('button', { name: koCall.videoCall, exact: true }).waitFor(WAIT);
    }
    return { caller, callee, room, callerUser, calleeUser };
  }

  /** Calls from the room header and answers: both sides read 통화 중. */
  async function connect(caller: Page, callee: Page, media: 'audio' | 'video'): Promise<void> {
    await caller.getByRole('button', { name: media === 'video' ? koCall.videoCall : koCall.voiceCall, exact: true }).click();
    const incoming = callee.getByTestId('incoming-call');
    await incoming.getByTestId('incoming-media').filter({ hasText: media === 'video' ? '영상통화' : '음성통화' }).waitFor(WAIT);
    await caller.getByTestId('call-status').filter({ hasText: koCall.ringing }).waitFor(WAIT);
    await incoming.getByRole('button', { name: koCall.accept }).click();
    for (const page of [caller, callee]) await page.getByTestId('call-status').filter({ hasText: koCall.inCall }).waitFor(WAIT);
  }

  /** The peer's video plays on this page: decoded frames with a width. */
  async function playsRemoteVideo(page: Page): Promise<void> {
    try {
      await page.waitForFunction(
        () => {
          const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
          return video !== null && !video.hidden && video.videoWidth > 0 && video.readyState >= 2;
        },
        undefined,
        WAIT,
      );
    } catch (error) {
      // Say what the element held, for whoever reads the failure.
      const state = await page.evaluate(() => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
        const stream = video?.srcObject instanceof MediaStream ? video.srcObject : null;
        return {
          present: video !== null,
          hidden: video?.hidden,
          width: video?.videoWidth,
          readyState: video?.readyState,
          paused: video?.paused,
          tracks: stream?.getTracks().map((t) => `${t.kind}:${t.readyState}:${t.muted ? 'muted' : 'live'}`),
        };
      });
      throw new Error(`the remote video does not play: ${JSON.stringify(state)} (${String(error)})`);
    }
  }

  /** The peer's sound reaches this page: the remote audio carries a signal above silence. */
  async function hearsPeer(page: Page): Promise<void> {
    await page.waitForFunction(
      () => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="remote-audio"]');
        const stream = audio?.srcObject;
        if (!(stream instanceof MediaStream) || stream.getAudioTracks().length === 0) return false;
        const w = window as unknown as { __meter?: { stream: MediaStream; analyser: AnalyserNode } };
        if (w.__meter?.stream !== stream) {
          const context = new AudioContext();
          const analyser = context.createAnalyser();
          context.createMediaStreamSource(stream).connect(analyser);
          w.__meter = { stream, analyser };
          return false;
        }
        const data = new Float32Array(w.__meter.analyser.fftSize);
        w.__meter.analyser.getFloatTimeDomainData(data);
        return data.some((sample) => Math.abs(sample) > 0.01);
      },
      undefined,
      { ...WAIT, polling: 100 },
    );
  }

  async function hangUp(page: Page, other: Page): Promise<void> {
    await page.getByTestId('in-call').getByRole('button', { name: koCall.hangUp }).click();
    for (const p of [page, other]) await p.getByTestId('in-call').waitFor({ state: 'detached', ...WAIT });
  }

  it('makes a video call from the room header: both sides play the other\'s video, a mute shows to the peer, and the record reads 발신/수신 영상통화 on each side', async () => {
    const { caller, callee } = await twoInARoom('민영상', '최화면');
    await connect(caller, callee, 'video');
    await playsRemoteVideo(caller);
    await playsRemoteVideo(callee);
    await screenshot(caller, 'video-call');

    await callee.getByTestId('in-call').getByRole('button', { name: koCall.mute, exact: true }).click();
    await caller.getByTestId('peer-muted').waitFor(WAIT);
    await screenshot(caller, 'video-call-peer-muted');
    await callee.getByTestId('in-call').getByRole('button', { name: koCall.unmute, exact: true }).click();
    await caller.getByTestId('peer-muted').waitFor({ state: 'detached', ...WAIT });

    // Collapsed to the call bar, the call shows a live thumbnail of the peer's video.
    await caller.getByRole('button', { name: koCall.collapse }).click();
    await caller.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid="call-bar-video"]')?.videoWidth ?? 0) > 0, undefined, WAIT);
    await screenshot(caller, 'video-call-bar');
    await caller.getByRole('button', { name: koCall.expand('최화면') }).click();

    await hangUp(caller, callee);
    await caller.getByTestId('call-end-text').filter({ hasText: /^통화 종료 · \d\d:\d\d$/ }).waitFor(WAIT);
    await caller.getByTestId('call-record-title').filter({ hasText: '발신 영상통화' }).waitFor(WAIT);
    await screenshot(caller, 'video-call-record');
    await callee.getByTestId('call-record-title').filter({ hasText: '수신 영상통화' }).waitFor(WAIT);
    expect(await caller.getByRole('button', { name: koCall.record.callBack(koCall.videoCall) }).count()).to.be.greaterThan(0);
  });

  it('upgrades a voice call to video when the callee turns the camera on, and shows a shared screen on the other side', async () => {
    const { caller, callee } = await twoInARoom('윤음성', '장영상');
    await connect(caller, callee, 'audio');
    expect(await caller.getByTestId('remote-video').evaluate((el) => (el as HTMLVideoElement).hidden)).to.equal(true);

    await callee.getByTestId('in-call').getByRole('button', { name: koCall.cameraOn }).click();
    await playsRemoteVideo(caller);

    await caller.getByTestId('in-call').getByRole('button', { name: koCall.shareScreen }).click();
    await callee.getByTestId('peer-sharing').filter({ hasText: koCall.peerSharing }).waitFor(WAIT);
    await playsRemoteVideo(callee);
    await screenshot(callee, 'video-call-screen-shared');
    await caller.getByTestId('in-call').getByRole('button', { name: koCall.stopShare }).click();
    await callee.getByTestId('peer-sharing').waitFor({ state: 'detached', ...WAIT });

    await hangUp(callee, caller);
    await caller.getByTestId('call-record-title').filter({ hasText: '발신 음성통화' }).waitFor(WAIT);
    await callee.getByTestId('call-record-title').filter({ hasText: '수신 음성통화' }).waitFor(WAIT);
  });

  for (const who of ['callee', 'caller'] as const) {
    it(`resumes a call after the ${who} reloads the page: both read 통화 중 again and the sound flows both ways`, async () => {
      const { caller, callee, room } = await twoInARoom(who === 'callee' ? '강재접' : '남재접', who === 'callee' ? '서새로' : '문새로');
      await connect(caller, callee, 'audio');
      await hearsPeer(caller);
      const [reloaded, stays] = who === 'callee' ? [callee, caller] : [caller, callee];

      await reloaded.reload();
      await stays.getByTestId('call-status').filter({ hasText: koCall.peerReconnecting }).or(stays.getByTestId('call-status').filter({ hasText: koCall.connecting })).waitFor(WAIT);
      await reloaded.getByTestId('call-status').filter({ hasText: koCall.inCall }).waitFor(WAIT);
      await stays.getByTestId('call-status').filter({ hasText: koCall.inCall }).waitFor(WAIT);
      await hearsPeer(caller);
      await hearsPeer(callee);
      expect(new URL(reloaded.url()).search).to.equal(`?cri=${room}`);

      await hangUp(caller, callee);
    });
  }

  it('records a call the callee rejects as 거절된 통화 for the caller and 거절한 통화 for the callee', async () => {
    const { caller, callee } = await twoInARoom('임거절', '한거부');
    await caller.getByRole('button', { name: koCall.voiceCall, exact: true }).click();
    await callee.getByTestId('incoming-call').getByRole('button', { name: koCall.reject }).click(WAIT);
    await caller.getByTestId('call-record-title').filter({ hasText: koCall.record.rejectedByPeer }).waitFor(WAIT);
    await callee.getByTestId('call-record-title').filter({ hasText: koCall.record.rejectedByMe }).waitFor(WAIT);
  });

  it('records a call the caller gives up on as 취소된 통화 / 부재중 전화, and 통화 기록 from the chat list counts the missed call', async () => {
    const { caller, callee } = await twoInARoom('조취소', '배부재');
    await caller.getByRole('button', { name: koCall.voiceCall, exact: true }).click();
    await callee.getByTestId('incoming-call').waitFor(WAIT);
    await caller.getByTestId('call-status').filter({ hasText: koCall.ringing }).waitFor(WAIT);
    await caller.getByTestId('in-call').getByRole('button', { name: koCall.hangUp }).click();
    await caller.getByTestId('call-record-title').filter({ hasText: koCall.record.cancelled }).waitFor(WAIT);
    await callee.getByTestId('call-record-title').filter({ hasText: koCall.record.missed }).waitFor(WAIT);

    await callee.goto(app.url('/chat-list'));
    await callee.getByRole('link', { name: ko.chatList.callHistory }).click();
    await callee.waitForURL('**/calls', WAIT);
    await callee.getByTestId('missed-count').filter({ hasText: '부재중 전화 1건' }).waitFor(WAIT);
    const entry = callee.getByTestId('call-history-entry').first();
    await entry.filter({ hasText: '조취소' }).waitFor(WAIT);
    await screenshot(callee, 'call-history');
    await entry.getByRole('button', { name: koCall.videoCall }).click();
    await caller.getByTestId('incoming-call').getByTestId('incoming-media').filter({ hasText: '영상통화' }).waitFor(WAIT);
  });
});
