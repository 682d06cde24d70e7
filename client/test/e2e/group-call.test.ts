// Group calls through the real UI and a real SFU (issue 25): three Chromium users with fake
// cameras and microphones in one room, one starting a video group call from the room header, the
// others joining from the ring and from the room's banner, all through the real server and the
// Janus it runs. Each page plays every other participant's sound and video; leaving shows in the
// others' grids; the last one out ends the call and the room says so. A page reloaded in the
// call joins it again by itself; one whose page closed shows as reconnecting in the others' grids
// for the server's grace, then leaves.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { koGroupCall } from '../../src/i18n/koGroupCall';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 45_000 };

describe('group calls in the browser', function () {
  const app = useE2eApp({ fakeMedia: true, extraArgs: ['--autoplay-policy=no-user-gesture-required'] });

  async function threeInARoom(): Promise<{ room: number; users: TestUser[]; pages: Page[] }> {
    const users = [await createUser(app.server, { name: '가그룹' }), await createUser(app.server, { name: '나그룹' }), await createUser(app.server, { name: '다그룹' })];
    const owner = await loginClient(app.server, users[0]);
    const created = await owner.post(api.roomCreate, { targetUserId: users[1].userId, targetUserName: users[1].name });
    expect(created.status).to.equal(200);
    const room = (created.body as { chatRoomId: number }).chatRoomId;
    expect((await owner.post(api.addUser, { chatRoomId: room, userId: users[2].userId })).status).to.equal(200);
    const pages: Page[] = [];
    for (const user of users) {
      const page = await app.signIn(user);
      await page.setViewportSize({ width: 1100, height: 800 });
      await page.goto(app.url(`/chat-room?cri=${room}`));
      await page.getByRole('button', { name: koGroupCall.start, exact: true }).waitFor(WAIT);
      pages.push(page);
    }
    return { room, users, pages };
  }

  /** This page plays the participant's sound: their audio element carries a signal above silence. */
  async function hears(page: Page, userId: number): Promise<void> {
    await page.waitForFunction(
      (id) => {
        const audio = document.querySelector<HTMLAudioElement>(`[data-testid="group-audio-${id}"]`);
        const stream = audio?.srcObject;
        if (!(stream instanceof MediaStream) || stream.getAudioTracks().length === 0) return false;
        const w = window as unknown as { __meters?: Map<number, { stream: MediaStream; analyser: AnalyserNode }> };
        w.__meters ??= new Map();
        const meter = w.__meters.get(id);
        if (meter?.stream !== stream) {
          const context = new AudioContext();
          const analyser = context.createAnalyser();
          context.createMediaStreamSource(stream).connect(analyser);
          w.__meters.set(id, { stream, analyser });
          return false;
        }
        const data = new Float32Array(meter.analyser.fftSize);
        meter.analyser.getFloatTimeDomainData(data);
        return data.some((sample) => Math.abs(sample) > 0.01);
      },
      userId,
      { ...WAIT, polling: 200 },
    );
  }

  /** This page plays the participant's video in their tile. */
  async function sees(page: Page, userId: number): Promise<void> {
    await page.waitForFunction(
      (id) => {
        const video = document.querySelector<HTMLVideoElement>(`[data-testid="group-tile-${id}"] video`);
        return video !== null && video.videoWidth > 0 && video.readyState >= 2;
      },
      userId,
      { ...WAIT, polling: 200 },
    );
  }

  it('three participants see and hear each other; one leaving shows to the others; the last one out ends it', async () => {
    const { users, pages } = await threeInARoom();
    const [a, b, c] = pages;
    await a.getByRole('button', { name: koGroupCall.start, exact: true }).click();
    await a.getByRole('menuitem', { name: koGroupCall.startVideo }).click();
    await a.getByTestId('group-call-screen').waitFor(WAIT);

    // B answers the ring; C joins later from the room's banner.
    await b.getByTestId('group-incoming').getByRole('button', { name: koGroupCall.join }).click();
    await c.getByTestId('group-incoming').getByRole('button', { name: koGroupCall.dismiss }).click();
    await c.getByTestId('group-call-banner').filter({ hasText: '그룹통화 중 · 2명 · 참여' }).waitFor(WAIT);
    await c.getByTestId('group-call-banner').getByRole('button', { name: koGroupCall.join }).click();

    for (const [i, page] of pages.entries()) {
      await page.getByTestId('group-call-screen').filter({ hasText: koGroupCall.title(3) }).waitFor(WAIT);
      for (const [j, other] of users.entries()) {
        if (i === j) continue;
        await hears(page, other.userId);
        await sees(page, other.userId);
      }
    }

    // B mutes: the others' tiles say so.
    await b.getByRole('button', { name: koGroupCall.mute }).click();
    await a.getByTestId(`group-tile-${users[1].userId}`).getByRole('img', { name: koGroupCall.muted }).waitFor(WAIT);

    // C leaves: the others' grids drop its tile.
    await c.getByRole('button', { name: koGroupCall.leave }).click();
    await c.getByTestId('group-call-screen').waitFor({ state: 'detached', ...WAIT });
    for (const page of [a, b]) await page.getByTestId(`group-tile-${users[2].userId}`).waitFor({ state: 'detached', ...WAIT });

    for (const page of [a, b]) await page.getByRole('button', { name: koGroupCall.leave }).click();
    await c.getByTestId('group-call-banner').waitFor({ state: 'detached', ...WAIT });
    // The room records the call once it ends: '그룹 영상통화 mm:ss · 3명'.
    await c.getByText(/^그룹 영상통화 \d\d:\d\d · 3명$/).first().waitFor(WAIT);
  });

  it('a page reloaded in the call joins it again by itself; a closed one shows as reconnecting, then leaves', async () => {
    const { users, pages } = await threeInARoom();
    const [a, b] = pages;
    const [userA, userB] = users;
    await a.getByRole('button', { name: koGroupCall.start, exact: true }).click();
    await a.getByRole('menuitem', { name: koGroupCall.startVoice }).click();
    await a.getByTestId('group-call-screen').waitFor(WAIT);
    await b.getByTestId('group-incoming').getByRole('button', { name: koGroupCall.join }).click();
    for (const page of [a, b]) await page.getByTestId('group-call-screen').filter({ hasText: koGroupCall.title(2) }).waitFor(WAIT);
    await hears(a, userB.userId);
    await hears(b, userA.userId);

    // B reloads: no click, the call comes back and both hear each other on the new connections.
    await b.reload();
    await b.getByTestId('group-call-screen').filter({ hasText: koGroupCall.title(2) }).waitFor(WAIT);
    await hears(b, userA.userId);
    await hears(a, userB.userId);
    expect(await b.evaluate((key) => sessionStorage.getItem(key), `groupCall:${userB.userId}`)).to.not.equal(null);

    // B's page closes: A's grid keeps B's tile, dimmed, '재연결 중…', for the grace; then B is gone.
    await b.close();
    const tileB = a.getByTestId(`group-tile-${userB.userId}`);
    await tileB.filter({ hasText: koGroupCall.reconnecting }).waitFor(WAIT);
    expect(await tileB.getAttribute('data-reconnecting')).to.equal('true');
    await tileB.waitFor({ state: 'detached', ...WAIT });
    await a.getByRole('button', { name: koGroupCall.leave }).click();
    await a.getByTestId('group-call-screen').waitFor({ state: 'detached', ...WAIT });
    expect(await a.evaluate((key) => sessionStorage.getItem(key), `groupCall:${userA.userId}`)).to.equal(null);
  });
});
