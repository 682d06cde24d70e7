// Link previews against local pages (issue 27): the page server is on loopback, reachable only
// because it is in the test-only allow-list OUTBOUND_ALLOW_HOSTS; a second local server ("inside",
// not allow-listed) plays a private address the guard must never reach. A user's fetches run one
// at a time in the order sent, so a good link sent after a bad one is the barrier: when its card
// arrives, the bad one's would have arrived before it.
import type { ServerResponse } from 'node:http';
import { expect } from 'chai';
import { api, type ChatHistoryResponse, type LinkPreview } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeRoomEvent } from '@common/events';
import type { RoomEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { ogPage, PageServer } from '../support/page-server';
import { connectStomp, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';
import { expectNothingFor, waitFor } from '../support/wait';
import { CACHE_MS } from '../../src/features/link-previews/link-previews-service';
import { PreviewsRepository } from '../../src/features/link-previews/previews-repository';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }
type PreviewEvent = Extract<RoomEvent, { type: 'linkPreview' }>;

const QUIET_MS = 1500;

forEachDatabase('link previews', (db) => {
  let server: RunningServer;
  let off: RunningServer;
  const pages = new PageServer();
  const inside = new PageServer();
  const open: TestStomp[] = [];
  let n = 0;
  const held: ServerResponse[] = [];
  const release = () => {
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end(ogPage({ title: 'Slow' }));
  };
  /** A fresh URL of a path each time (the cache is per URL). */
  const fresh = (path: string) => `${pages.origin}${path}?n=${++n}`;

  before(async () => {
    await pages.start();
    await inside.start();
    pages.html('/og', ogPage({ title: 'A &amp; B &quot;news&quot;', description: '  Some   description  ', siteName: 'Example', image: '/image.png' }));
    pages.html('/plain', '<html><head><title>Only a title</title><meta name="description" content="From meta"></head><body></body></html>');
    pages.redirect('/r1', '/r2');
    pages.redirect('/r2', '/r3');
    pages.redirect('/r3', '/og');
    pages.redirect('/r0', '/r1');
    pages.answer('/json', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"no"}'));
    pages.html('/big', ogPage({ title: 'Too big' }).replace('<p>Body</p>', `<p>${'x'.repeat(1024 * 1024 + 10)}</p>`));
    pages.html('/inside-image', ogPage({ title: 'Image inside', image: `${inside.origin}/image.png` }));
    pages.redirect('/to-inside', `${inside.origin}/og`);
    pages.html('/cookie', ogPage({ title: 'Cookie page' }), { 'set-cookie': 'sid=secret; Path=/' });
    inside.html('/og', ogPage({ title: 'Inside' }));
    // Held until the test lets it answer: a slow site.
    pages.answer('/slow', (_req, res) => held.push(res));
    server = await startTestServer({ databaseUrl: db.url(), env: { OUTBOUND_ALLOW_HOSTS: pages.host } });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
    await off?.stop();
    await pages.stop();
    await inside.stop();
  });

  const member = async (on: RunningServer, name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(on, { name });
    const stomp = await connectStomp(on, client.cookieHeader());
    open.push(stomp);
    return { user, client, stomp };
  };
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  /** Sends a message and answers its id as the room topic delivered it. */
  const say = async (m: Member, roomId: number, content: string): Promise<number> => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content });
    const id = ((await inbox.next()).json() as { messageId: number }).messageId;
    inbox.unsubscribe();
    return id;
  };
  const nextPreview = async (inbox: Inbox, roomId: number): Promise<PreviewEvent> => {
    for (;;) {
      const event = decodeRoomEvent((await inbox.next()).json(), roomId);
      if (event?.type === 'linkPreview') return event;
    }
  };
  const setting = async () => {
    const a = await member(server, 'Poster');
    const b = await member(server, 'Reader');
    const roomId = await roomOf(a, b);
    const events = await b.stomp.subscribe(topics.chatRoomEvents(roomId));
    return { a, b, roomId, events };
  };
  /** Sends `bad`, then a good link as a barrier: the first card that arrives must be the good one's. */
  const expectNoCard = async (bad: string) => {
    const { a, roomId, events } = await setting();
    const badId = await say(a, roomId, bad);
    const goodId = await say(a, roomId, `barrier ${fresh('/plain')}`);
    const first = await nextPreview(events, roomId);
    expect(first.messageId, 'the first card is the barrier\'s').to.equal(goodId);
    expect(first.messageId).to.not.equal(badId);
  };

  it('sends a card for a page with Open Graph tags, serves its image itself, and history carries it', async () => {
    const { a, b, roomId, events } = await setting();
    const url = fresh('/og');
    const messageId = await say(a, roomId, `look at this: ${url}.`);
    const event = await nextPreview(events, roomId);
    expect(event.messageId).to.equal(messageId);
    const preview: LinkPreview = event.linkPreview;
    expect(preview).to.include({ url, title: 'A & B "news"', description: 'Some description', siteName: 'Example' });
    expect(preview.imageUrl).to.match(/^\/api\/link-previews\/[A-Za-z0-9_-]{22}\/image$/);
    // Asked once for the image by us, with our User-Agent and no cookie.
    const imageRequests = pages.requestsTo('/image.png');
    expect(imageRequests.length).to.be.greaterThan(0);
    const pageRequest = pages.seen.find((r) => r.path === new URL(url).pathname + new URL(url).search)!;
    expect(pageRequest.headers['user-agent']).to.match(/LetsChatLinkPreview/);
    expect(pageRequest.headers.cookie).to.equal(undefined);

    const image = await fetch(server.url + preview.imageUrl!, { headers: { cookie: b.client.cookieHeader() } });
    expect(image.status).to.equal(200);
    expect(image.headers.get('content-type')).to.equal('image/webp');
    expect(image.headers.get('etag')).to.match(/^".+"$/);
    expect((await image.arrayBuffer()).byteLength).to.be.greaterThan(0);
    const anonymous = await fetch(server.url + preview.imageUrl!);
    expect(anonymous.status).to.equal(401);
    expect((await fetch(server.url + api.linkPreviewImage('A'.repeat(22)), { headers: { cookie: b.client.cookieHeader() } })).status).to.equal(404);

    const history = (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    expect(history.messages.find((m) => m.messageId === messageId)?.linkPreview).to.deep.equal(preview);
  });

  it('uses <title> and the meta description when there are no Open Graph tags, and the cache for the same URL again', async () => {
    const { a, roomId, events } = await setting();
    const url = fresh('/plain');
    await say(a, roomId, url);
    expect((await nextPreview(events, roomId)).linkPreview).to.deep.equal({ url, title: 'Only a title', description: 'From meta', siteName: null, imageUrl: null });
    const before = pages.requestsTo('/plain').length;
    const again = await say(a, roomId, `again ${url}`);
    const event = await nextPreview(events, roomId);
    expect(event.messageId).to.equal(again);
    expect(event.linkPreview.title).to.equal('Only a title');
    expect(pages.requestsTo('/plain').length, 'served from the cache').to.equal(before);
  });

  it('follows three redirects, and not a fourth', async () => {
    const { a, roomId, events } = await setting();
    const url = fresh('/r1');
    await say(a, roomId, url);
    expect((await nextPreview(events, roomId)).linkPreview).to.include({ url, title: 'A & B "news"' });
    await expectNoCard(fresh('/r0'));
  });

  it('gives no card for an answer that is not HTML, nor for a page over 1 MiB', async () => {
    await expectNoCard(fresh('/json'));
    await expectNoCard(fresh('/big'));
  });

  it('never reaches an address that is not allow-listed: not as the link, not by a redirect, not as the image', async () => {
    const before = inside.seen.length;
    await expectNoCard(`${inside.origin}/og`);
    await expectNoCard(fresh('/to-inside'));
    const { a, roomId, events } = await setting();
    await say(a, roomId, fresh('/inside-image'));
    const event = await nextPreview(events, roomId);
    expect(event.linkPreview).to.include({ title: 'Image inside', imageUrl: null });
    expect(inside.seen.length, 'no request reached the non-allow-listed server').to.equal(before);
    // The redirect to it was asked for, and nothing after it.
    expect(pages.requestsTo('/to-inside')).to.have.length(1);
  });

  it('keeps no cookie a page sets', async () => {
    const { a, roomId, events } = await setting();
    const url = fresh('/cookie');
    await say(a, roomId, url);
    await nextPreview(events, roomId);
    // The same URL again after the cache: a different query, so it is fetched again.
    await say(a, roomId, fresh('/cookie'));
    await nextPreview(events, roomId);
    const asked = pages.requestsTo('/cookie');
    expect(asked.length).to.be.at.least(2);
    for (const r of asked) expect(r.headers.cookie).to.equal(undefined);
  });

  it("one user's flood of links holds one fetch and a few queue places, never another user's preview", async () => {
    const flood = await setting();
    const other = await setting();
    for (let i = 0; i < 20; i += 1) await say(flood.a, flood.roomId, `flood ${fresh('/slow')}`);
    await waitFor(() => held.length === 1, 'the first of the flood asked for');
    // The flood's first fetch is still held: another user's link is fetched and announced anyway.
    const url = fresh('/og');
    await say(other.a, other.roomId, url);
    expect((await nextPreview(other.events, other.roomId)).linkPreview.url).to.equal(url);
    expect(held).to.have.length(1);
    // Let the slow site answer, one request at a time: the flood's links are fetched one after
    // another, and past the user's waiting places (5 in all) the rest were dropped.
    for (let i = 0; i < 5; i += 1) {
      await waitFor(() => held.length === 1, `request ${i + 1} of the flood`);
      release();
      expect((await nextPreview(flood.events, flood.roomId)).linkPreview.title).to.equal('Slow');
    }
    // A barrier: the same user's next link is fetched after whatever of the flood was queued.
    const last = fresh('/plain');
    await say(flood.a, flood.roomId, last);
    expect((await nextPreview(flood.events, flood.roomId)).linkPreview.url).to.equal(last);
    expect(held).to.have.length(0);
    expect(pages.requestsTo('/slow')).to.have.length(5);
  });

  it('sweeps from the cache the rows past their time that no message shows, and keeps the others', async () => {
    const { a, roomId, events } = await setting();
    const shown = fresh('/og');
    await say(a, roomId, shown);
    await nextPreview(events, roomId);
    const repo = new PreviewsRepository(server.db);
    const unused = fresh('/plain');
    const recent = fresh('/plain');
    await repo.store(unused, null, null, 1000);
    await repo.store(recent, { title: 'Recent', description: null, siteName: null, image: null }, null, Date.now());
    // The shown page's row as old as the unused one: a message still shows it.
    await server.db('link_previews').where('url', shown).update({ fetched_at_ms: 1000 });
    expect(await repo.removeUnused(Date.now() - CACHE_MS.ok, 1000)).to.equal(1);
    expect(await repo.byUrl(unused)).to.equal(null);
    expect((await repo.byUrl(shown))?.ok).to.equal(true);
    expect((await repo.byUrl(recent))?.ok).to.equal(true);
  });

  it('LINK_PREVIEWS=off: no fetch and no event', async () => {
    off = await startTestServer({ databaseUrl: db.url(), env: { OUTBOUND_ALLOW_HOSTS: pages.host, LINK_PREVIEWS: 'off' } });
    const a = await member(off, 'Off poster');
    const b = await member(off, 'Off reader');
    const roomId = await roomOf(a, b);
    const events = await b.stomp.subscribe(topics.chatRoomEvents(roomId));
    const url = fresh('/og');
    const path = new URL(url).pathname + new URL(url).search;
    await say(a, roomId, url);
    await expectNothingFor(QUIET_MS, 'a link preview with LINK_PREVIEWS=off', () =>
      events.drain().some((m) => decodeRoomEvent(m.json(), roomId)?.type === 'linkPreview') || pages.seen.some((r) => r.path === path));
  });
});
