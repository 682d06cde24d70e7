// A link preview in the browser (issue 27): a page with Open Graph tags on a local server (in the
// test-only allow-list OUTBOUND_ALLOW_HOSTS), a link to it sent from the composer, and the card
// arriving under the message on both sides: title, description, site, our image with the title
// as alt, and a link that opens the page in a new tab.
import { expect } from 'chai';
import { api } from '@common/api';
import { ogPage, PageServer } from '../../../server/test/support/page-server';
import { createUser, loginClient } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';

const WAIT = { timeout: 30_000 };

describe('link previews in the browser', function () {
  const pages = new PageServer();
  // Filled in before the app starts (hooks run in the order registered).
  const env: Record<string, string> = {};
  before(async () => {
    await pages.start();
    pages.html('/article', ogPage({ title: '봄 소풍 안내', description: '이번 주 토요일 한강 공원', siteName: '동네 소식', image: '/image.png' }));
    env.OUTBOUND_ALLOW_HOSTS = pages.host;
  });
  after(() => pages.stop());
  const app = useE2eApp({ env });

  it('shows a card under a sent link, on both sides, that opens the page in a new tab', async () => {
    const a = await createUser(app.server, { name: '김민지' });
    const b = await createUser(app.server, { name: '박서준' });
    const client = await loginClient(app.server, a);
    const chatRoomId = ((await client.post(api.roomCreate, { targetUserId: b.userId })).body as { chatRoomId: number }).chatRoomId;
    const A = await app.signIn(a);
    const B = await app.signIn(b);
    await A.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await B.goto(app.url(`/chat-room?cri=${chatRoomId}`));

    const url = `${pages.origin}/article`;
    const box = A.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill(`이거 봐 ${url}`);
    await box.press('Enter');

    const cardOnB = B.getByTestId('their-message').getByRole('link', { name: /봄 소풍 안내/ });
    await cardOnB.waitFor(WAIT);
    expect(await cardOnB.textContent()).to.include('이번 주 토요일 한강 공원').and.include('동네 소식');
    expect(await cardOnB.getAttribute('href')).to.equal(url);
    expect(await cardOnB.getAttribute('target')).to.equal('_blank');
    const image = cardOnB.getByRole('img', { name: '봄 소풍 안내' });
    expect(await image.getAttribute('src')).to.match(/^\/api\/link-previews\/[A-Za-z0-9_-]{22}\/image$/);
    // Our image loaded (served by us, not the page's server).
    await B.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0, await image.elementHandle(), WAIT);
    await A.getByTestId('my-message').getByTestId('link-preview').waitFor(WAIT);

    const violations = await seriousViolations(B);
    expect(violations, describeViolations('link preview card', violations)).to.have.length(0);

    // Tapping opens the page in a new tab.
    const [tab] = await Promise.all([B.context().waitForEvent('page'), cardOnB.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).to.equal(url);
    expect(await tab.title()).to.equal('Plain title');

    // Opened again, the room shows the card from history.
    await B.reload();
    await B.getByTestId('their-message').getByTestId('link-preview').waitFor(WAIT);
  });
});
