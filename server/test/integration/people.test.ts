// Profiles and friends (docs/protocol.md, profiles and friends), raw REST on both databases.
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type CallsResponse, type Friend } from '@common/api';
import { app, queues } from '@common/destinations';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { eventually } from '../support/wait';
import { newLoggedInUser, type TestUser } from '../support/users';

/**
 * A JPEG 300×200 as stored, red on its left half and blue on its right, turned a quarter by its
 * EXIF orientation (6: upright, the left half is on top), with a camera note and GPS text.
 */
const photoWithExif = async () => {
  const half = (background: string) => sharp({ create: { width: 150, height: 200, channels: 3, background } }).png().toBuffer();
  return sharp({ create: { width: 300, height: 200, channels: 3, background: '#000' } })
    .composite([{ input: await half('#ff0000'), left: 0, top: 0 }, { input: await half('#0000ff'), left: 150, top: 0 }])
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'GPS 37.5665 126.9780' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
};

/** The colour of one pixel of an image, as [r, g, b]. */
async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

const png = () => sharp({ create: { width: 40, height: 90, channels: 4, background: '#ff0000' } }).png().toBuffer();

forEachDatabase('people: photos, status, friends', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await server?.stop();
  });

  const putPhoto = (client: ApiClient, body: Buffer, type = 'image/jpeg') =>
    fetch(server.url + api.userPhoto, { method: 'PUT', headers: { cookie: client.cookieHeader(), 'content-type': type }, body: new Uint8Array(body) });
  const getPhoto = (client: ApiClient | null, userId: number, query = '', headers: Record<string, string> = {}) =>
    fetch(`${server.url}${api.photoOf(userId)}${query}`, { headers: { ...(client ? { cookie: client.cookieHeader() } : {}), ...headers } });

  describe('profile photos', () => {
    it('crops the upload to upright squares (small 96, large 512) with no EXIF, served to signed-in users with an ETag that changes with the photo', async () => {
      const { user: alice, client: a } = await newLoggedInUser(server, { name: 'Alice' });
      const { client: b } = await newLoggedInUser(server, { name: 'Bob' });
      expect((await a.get(api.userProfile)).body).to.deep.equal({ userId: alice.userId, name: 'Alice', photoVersion: null, statusMessage: null });

      const put = await putPhoto(a, await photoWithExif());
      expect(put.status, await put.clone().text()).to.equal(200);
      const { photoVersion } = (await put.json()) as { photoVersion: string };
      expect(photoVersion).to.be.a('string').and.have.length.above(4);
      expect((await a.get(api.userProfile)).body.photoVersion).to.equal(photoVersion);

      for (const [size, px] of [['small', 96], ['large', 512]] as const) {
        const res = await getPhoto(b, alice.userId, `?size=${size}`);
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('image/webp');
        expect(res.headers.get('etag')).to.include(photoVersion);
        expect(res.headers.get('cache-control')).to.include('no-cache');
        const bytes = Buffer.from(await res.arrayBuffer());
        const meta = await sharp(bytes).metadata();
        expect([meta.width, meta.height]).to.deep.equal([px, px]);
        expect(meta.exif).to.equal(undefined);
        expect(bytes.includes('SecretCam')).to.equal(false);
        // Upright: the stored left half (red) is on top, the right (blue) at the bottom.
        const [top, bottom] = [await pixel(bytes, px / 2, 2), await pixel(bytes, 2, px - 3)];
        expect(top[0] > 200 && top[2] < 60, `top ${String(top)}`).to.equal(true);
        expect(bottom[2] > 200 && bottom[0] < 60, `bottom ${String(bottom)}`).to.equal(true);
      }
      // No size: small.
      expect((await sharp(Buffer.from(await (await getPhoto(b, alice.userId)).arrayBuffer())).metadata()).width).to.equal(96);

      const etag = (await getPhoto(b, alice.userId)).headers.get('etag')!;
      const notModified = await getPhoto(b, alice.userId, '?size=small', { 'if-none-match': etag });
      expect(notModified.status).to.equal(304);
      // The address naming this very version is cached for good.
      expect((await getPhoto(b, alice.userId, `?size=large&v=${photoVersion}`)).headers.get('cache-control')).to.include('immutable');

      const second = await putPhoto(a, await png(), 'image/png');
      expect(second.status).to.equal(200);
      const next = ((await second.json()) as { photoVersion: string }).photoVersion;
      expect(next).to.not.equal(photoVersion);
      const changed = await getPhoto(b, alice.userId, '?size=small', { 'if-none-match': etag });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).to.include(next);
    });

    it('refuses what is no JPEG, PNG or WebP (400), more than 10 MiB (413), and answers 401 unsigned, 404 without a photo, 400 for a bad size', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Carol' });
      const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).gif().toBuffer();
      for (const body of [Buffer.from('not an image at all'), gif, Buffer.alloc(0)]) {
        const res = await putPhoto(client, body);
        expect(res.status).to.equal(400);
        expect(await res.json()).to.have.keys('error', 'message');
      }
      const huge = await putPhoto(client, Buffer.alloc(10 * 1024 * 1024 + 1));
      expect(huge.status).to.equal(413);
      expect((await getPhoto(client, user.userId)).status).to.equal(404);
      expect((await getPhoto(client, 999999999)).status).to.equal(404);
      expect((await getPhoto(client, user.userId, '?size=huge')).status).to.equal(400);
      expect((await getPhoto(null, user.userId)).status).to.equal(401);
      expect((await client.get(api.userProfile)).body.photoVersion).to.equal(null);
    });

    it('DELETE /api/user/photo removes it: 404 after, photoVersion null', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Dave' });
      expect((await putPhoto(client, await png(), 'image/png')).status).to.equal(200);
      const del = await client.delete(api.userPhoto);
      expect([del.status, del.body]).to.deep.equal([200, { photoVersion: null }]);
      expect((await getPhoto(client, user.userId)).status).to.equal(404);
      expect((await client.get(api.userProfile)).body.photoVersion).to.equal(null);
      // Again: nothing to remove, still fine.
      expect((await client.delete(api.userPhoto)).status).to.equal(200);
    });
  });

  describe('status messages', () => {
    it('sets, trims and clears the status; refuses more than 60 characters or invisible ones with 400', async () => {
      const { client } = await newLoggedInUser(server, { name: 'Erin' });
      expect((await client.request('PUT', api.userStatus, { json: { statusMessage: '  오늘은 바빠요!  ' } })).body).to.deep.equal({ statusMessage: '오늘은 바빠요!' });
      expect((await client.get(api.userProfile)).body.statusMessage).to.equal('오늘은 바빠요!');
      expect((await client.request('PUT', api.userStatus, { json: { statusMessage: '가'.repeat(60) } })).status).to.equal(200);
      for (const body of [{ statusMessage: '가'.repeat(61) }, { statusMessage: 'hi\u200Bthere' }, { statusMessage: 'a\nb' }, { statusMessage: 5 }, {}, []]) {
        const res = await client.request('PUT', api.userStatus, { json: body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body).to.have.keys('error', 'message');
      }
      expect((await client.get(api.userProfile)).body.statusMessage).to.equal('가'.repeat(60));
      expect((await client.request('PUT', api.userStatus, { json: { statusMessage: '   ' } })).body).to.deep.equal({ statusMessage: null });
      expect((await client.get(api.userProfile)).body.statusMessage).to.equal(null);
    });
  });

  describe('photoVersion and statusMessage on user objects', () => {
    it('user search and history users carry them (null when none), and the original fields are unchanged', async () => {
      const tag = `Zed${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 6)}`;
      const { user: zed, client: z } = await newLoggedInUser(server, { name: tag });
      const { user: yan, client: y } = await newLoggedInUser(server, { name: 'Yan' });
      const version = ((await (await putPhoto(z, await png(), 'image/png')).json()) as { photoVersion: string }).photoVersion;
      await z.request('PUT', api.userStatus, { json: { statusMessage: '안녕' } });

      const found = (await y.get(`${api.userSearch}?keyword=${encodeURIComponent(tag)}`)).body as Array<Record<string, unknown>>;
      expect(found).to.have.length(1);
      expect(found[0]).to.include({ userId: zed.userId, name: tag, email: zed.email, photoVersion: version, statusMessage: '안녕' });

      const { chatRoomId } = (await y.post(api.roomCreate, { targetUserId: zed.userId })).body as { chatRoomId: number };
      const history = (await y.get(`${api.chatHistory}?chatRoomId=${chatRoomId}&page=0`)).body as { users: Array<Record<string, unknown>> };
      const byId = new Map(history.users.map((u) => [u.userId, u]));
      expect(byId.get(zed.userId)).to.include({ name: tag, email: zed.email, photoVersion: version, statusMessage: '안녕' });
      expect(byId.get(yan.userId)).to.include({ name: 'Yan', photoVersion: null, statusMessage: null });
    });

    it("the call record names the peer's photo version", async () => {
      const { client: caller } = await newLoggedInUser(server, { name: 'Caller' });
      const { user: callee, client: calleeClient } = await newLoggedInUser(server, { name: 'Callee' });
      const version = ((await (await putPhoto(caller, await png(), 'image/png')).json()) as { photoVersion: string }).photoVersion;
      const stomp = await connectStomp(server, caller.cookieHeader());
      try {
        const hangups = await stomp.subscribe(queues.call('hangup', (await caller.get(api.userId)).body.userId as number));
        // The callee has no connection: the call ends at once as unavailable, and is recorded.
        await stomp.send(app.callInitiate, { targetUserId: callee.userId, media: 'audio' });
        await hangups.next();
        await eventually(async () => {
          const { calls } = (await calleeClient.get<CallsResponse>(api.calls)).body;
          expect(calls).to.have.length(1);
          expect(calls[0]).to.include({ peerName: 'Caller', peerPhotoVersion: version });
        });
      } finally {
        await stomp.disconnect();
      }
    });
  });

  describe('friends', () => {
    let me: { user: TestUser; client: ApiClient };
    let kim: TestUser;
    let lee: TestUser;
    before(async () => {
      me = await newLoggedInUser(server, { name: 'Me' });
      kim = (await newLoggedInUser(server, { name: '김철수' })).user;
      lee = (await newLoggedInUser(server, { name: 'Lee' })).user;
    });

    it('adds, marks favourites (first), lists with profile and presence, and removes', async () => {
      const c = me.client;
      expect((await c.get(api.friends)).body).to.deep.equal([]);
      expect((await c.request('PUT', api.friend(lee.userId), { json: {} })).status).to.equal(200);
      expect((await c.request('PUT', api.friend(kim.userId))).status).to.equal(200);
      let list = (await c.get(api.friends)).body as Friend[];
      expect(list.map((f) => f.name)).to.deep.equal(['Lee', '김철수']);
      expect(list[0]).to.deep.equal({ userId: lee.userId, name: 'Lee', photoVersion: null, statusMessage: null, favourite: false, online: false });

      expect((await c.request('PUT', api.friend(kim.userId), { json: { favourite: true } })).status).to.equal(200);
      list = (await c.get(api.friends)).body as Friend[];
      expect(list.map((f) => [f.name, f.favourite])).to.deep.equal([['김철수', true], ['Lee', false]]);
      // Adding again without favourite keeps the mark.
      await c.request('PUT', api.friend(kim.userId), { json: {} });
      expect(((await c.get(api.friends)).body as Friend[])[0].favourite).to.equal(true);

      // One-sided: Lee's list is unchanged.
      const del = await c.delete(api.friend(lee.userId));
      expect(del.status).to.equal(200);
      expect((del.body as Friend[]).map((f) => f.userId)).to.deep.equal([kim.userId]);
      expect((await c.delete(api.friend(lee.userId))).status).to.equal(404);
    });

    it("shows a friend online while they hold a connection, with their photo and status", async () => {
      const { user: ona, client: o } = await newLoggedInUser(server, { name: 'Ona' });
      const version = ((await (await putPhoto(o, await png(), 'image/png')).json()) as { photoVersion: string }).photoVersion;
      await o.request('PUT', api.userStatus, { json: { statusMessage: '여행 중' } });
      const { client: c } = await newLoggedInUser(server, { name: 'Watcher' });
      await c.request('PUT', api.friend(ona.userId), { json: { favourite: false } });
      expect((await c.get(api.friends)).body).to.deep.equal([{ userId: ona.userId, name: 'Ona', photoVersion: version, statusMessage: '여행 중', favourite: false, online: false }]);
      const stomp = await connectStomp(server, o.cookieHeader());
      try {
        await eventually(async () => expect(((await c.get(api.friends)).body as Friend[])[0].online).to.equal(true));
      } finally {
        await stomp.disconnect();
      }
    });

    it('refuses yourself or a malformed id or body with 400 and an unknown user with 404', async () => {
      const c = me.client;
      for (const [path, body] of [[api.friend(me.user.userId), {}], [api.friend('abc'), {}], [api.friend(0), {}], [api.friend(kim.userId), { favourite: 'yes' }], [api.friend(kim.userId), [1]]] as const) {
        const res = await c.request('PUT', path, { json: body });
        expect(res.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
        expect(res.body).to.have.keys('error', 'message');
      }
      expect((await c.delete(api.friend(me.user.userId))).status).to.equal(400);
      expect((await c.delete(api.friend('x'))).status).to.equal(400);
      expect((await c.request('PUT', api.friend(999999999), { json: {} })).status).to.equal(404);
      expect((await c.delete(api.friend(999999999))).status).to.equal(404);
    });
  });
});
