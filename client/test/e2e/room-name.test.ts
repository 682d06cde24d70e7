// The room header of a room no one renamed names the viewer's company and follows it
// live: a member added or leaving renames the header at once from the room's own system
// messages, with no reopening; a renamed room keeps its name as members come and go.
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import { api } from '@common/api';
import { createUser, loginClient } from '../../../server/test/support/users';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

describe('the room header name in the browser', function () {
  const app = useE2eApp();

  async function headerBecomes(page: Page, name: string): Promise<void> {
    await page.getByTestId('room-name').filter({ hasText: new RegExp(`^${name}$`) }).waitFor(WAIT);
    expect(await page.getByTestId('room-name').innerText()).to.equal(name);
  }

  it('renames the header of a room no one renamed as a member is added and leaves, and keeps a renamed room\'s name', async () => {
    const [a, b, c, d] = await Promise.all(['가영', '나래', '다솜', '라희'].map((name) => createUser(app.server, { name })));
    const aApi = await loginClient(app.server, a);
    const chatRoomId = ((await aApi.post(api.roomCreate, { targetUserId: b.userId })).body as { chatRoomId: number }).chatRoomId;

    const A = await app.signIn(a);
    await A.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await A.getByTestId('messages').waitFor(WAIT);
    await headerBecomes(A, '나래');

    // Added by A elsewhere (another tab, here the API): A's open room hears it on its topic.
    expect((await aApi.post(api.addUser, { chatRoomId, userId: c.userId })).status).to.equal(200);
    await headerBecomes(A, '나래, 다솜');

    const cApi = await loginClient(app.server, c);
    expect((await cApi.delete(`${api.leaveChat}?chatRoomId=${chatRoomId}`)).status).to.equal(200);
    await headerBecomes(A, '나래');

    const bApi = await loginClient(app.server, b);
    expect((await bApi.post(api.updateSubject, { chatRoomId, chatRoomName: '주말 계획' })).status).to.equal(200);
    await headerBecomes(A, '주말 계획');
    expect((await aApi.post(api.addUser, { chatRoomId, userId: d.userId })).status).to.equal(200);
    await A.getByTestId('system-message').filter({ hasText: '라희' }).waitFor(WAIT);
    expect(await A.getByTestId('room-name').innerText()).to.equal('주말 계획');
  });
});
