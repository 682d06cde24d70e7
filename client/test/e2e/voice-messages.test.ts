// Voice messages through the real UI (issue 27): A records with Chromium's fake microphone
// (a beeping tone), sends it; B sees the player with the length and waveform the server read,
// plays it, and the audio element plays to its end.
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import { api } from '@common/api';
import { createUser, loginClient } from '../../../server/test/support/users';
import { koVoice } from '../../src/features/room/voice/koVoice';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

describe('voice messages in the browser', function () {
  const app = useE2eApp({ fakeMedia: true });

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }

  it('records with the microphone, sends, and the other member plays it to its end at 2×', async () => {
    const a = await createUser(app.server, { name: '음성 보내는 사람' });
    const b = await createUser(app.server, { name: '음성 듣는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    const B = await app.signIn(b);
    await openRoom(A, chatRoomId);
    await openRoom(B, chatRoomId);

    // Tapped: the recording goes on until it is sent.
    await A.getByRole('button', { name: '음성 메시지' }).click();
    const recorder = A.getByTestId('voice-recorder');
    await recorder.waitFor(WAIT);
    // At least 2 seconds of sound: the clock shows 0:02.
    await A.getByTestId('voice-elapsed').filter({ hasText: /^0:0[2-9]/ }).waitFor(WAIT);
    await A.getByRole('button', { name: koVoice.send }).click();
    await recorder.waitFor({ state: 'detached', ...WAIT });

    const player = B.getByTestId('their-message').getByTestId('voice-player');
    await player.waitFor(WAIT);
    expect(await player.getByTestId('voice-wave').locator('.voice-player__bar').count()).to.equal(64);
    expect(await player.getByTestId('voice-time').textContent()).to.match(/^0:0[2-9]$/);
    await A.getByTestId('my-message').getByTestId('voice-player').waitFor(WAIT);

    await player.getByRole('button', { name: koVoice.speed(1) }).click();
    await player.getByRole('button', { name: koVoice.speed(1.5) }).click();
    await player.getByRole('button', { name: koVoice.speed(2) }).waitFor(WAIT);
    await player.getByRole('button', { name: koVoice.play, exact: true }).click();
    await player.getByRole('button', { name: koVoice.pause, exact: true }).waitFor(WAIT);
    const audio = player.getByTestId('voice-audio');
    await B.waitForFunction(() => {
      const el = document.querySelector<HTMLAudioElement>('[data-testid="their-message"] [data-testid="voice-audio"]');
      return el !== null && el.currentTime > 0.5;
    }, undefined, WAIT);
    expect(await audio.evaluate((el: HTMLAudioElement) => el.playbackRate)).to.equal(2);
    await B.waitForFunction(() => document.querySelector<HTMLAudioElement>('[data-testid="their-message"] [data-testid="voice-audio"]')?.ended === true, undefined, WAIT);
    await player.getByRole('button', { name: koVoice.play, exact: true }).waitFor(WAIT);
  });

  it('by keyboard, cancels a recording with the cancel button: nothing is sent', async () => {
    const a = await createUser(app.server, { name: '취소하는 사람' });
    const b = await createUser(app.server, { name: '기다리는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    await A.setViewportSize({ width: 390, height: 844 }); // a phone
    await openRoom(A, chatRoomId);
    // By keyboard: Enter on the button starts, Enter on '녹음 취소' cancels.
    await A.getByRole('button', { name: '음성 메시지', exact: true }).press('Enter');
    await A.getByTestId('voice-elapsed').filter({ hasText: /^0:0[1-9]/ }).waitFor(WAIT);
    // On the phone's screen whole, its buttons at least 36 px high.
    const panel = (await A.getByTestId('voice-recorder').boundingBox())!;
    expect(panel.x).to.be.at.least(0);
    expect(panel.x + panel.width).to.be.at.most(390);
    for (const name of [koVoice.cancel, koVoice.send]) {
      const button = (await A.getByRole('button', { name }).boundingBox())!;
      expect(button.x + button.width, name).to.be.at.most(390);
      expect(button.height, name).to.be.at.least(36);
    }
    await A.getByRole('button', { name: koVoice.cancel }).press('Enter');
    await A.getByTestId('voice-recorder').waitFor({ state: 'detached', ...WAIT });
    const history = (await client.get<{ messages: unknown[] }>(`${api.chatHistory}?chatRoomId=${chatRoomId}&page=0`)).body;
    expect(history.messages.filter((m) => (m as { attachment?: unknown }).attachment)).to.deep.equal([]);
    expect(await A.getByTestId('voice-player').count()).to.equal(0);
  });

  it('held: releasing sends; sliding away from the button cancels and sends nothing', async () => {
    const a = await createUser(app.server, { name: '누르는 사람' });
    const b = await createUser(app.server, { name: '받는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    await openRoom(A, chatRoomId);
    const button = A.getByRole('button', { name: '음성 메시지', exact: true });
    const box = (await button.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const sentCount = async () => (await client.get<{ messages: Array<{ attachment?: unknown }> }>(`${api.chatHistory}?chatRoomId=${chatRoomId}&page=0`)).body.messages.filter((m) => m.attachment).length;

    // Held and slid away: cancelled.
    await A.mouse.move(x, y);
    await A.mouse.down();
    await A.getByText(koVoice.slideToCancel).waitFor(WAIT);
    await A.getByTestId('voice-elapsed').filter({ hasText: /^0:0[1-9]/ }).waitFor(WAIT);
    await A.mouse.move(x - 200, y - 150, { steps: 5 });
    await A.getByTestId('voice-recorder').waitFor({ state: 'detached', ...WAIT });
    await A.mouse.up();
    expect(await sentCount()).to.equal(0);

    // Held and released in place: sent.
    await A.mouse.move(x, y);
    await A.mouse.down();
    await A.getByTestId('voice-elapsed').filter({ hasText: /^0:0[2-9]/ }).waitFor(WAIT);
    await A.mouse.up();
    await A.getByTestId('my-message').getByTestId('voice-player').waitFor(WAIT);
    expect(await sentCount()).to.equal(1);
  });
});
