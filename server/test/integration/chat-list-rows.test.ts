// What a chat-list row says beyond the spec (docs/protocol.md, chat list): `peer` names the other
// member of a two-member room (their photo on the row), on both databases; `groupCall` says a
// group call is on in the room, against the real Janus the server embeds, and every member's
// chat list is told to reload (/topic/toggle-refresh) when one starts, changes size or ends,
// since the row's room may be open nowhere.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type ChatSummary } from '@common/api';
import { app, queues, topics } from '@common/destinations';
import type { GroupCallSignal } from '@common/group-call';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase, IN_CI } from '../support/databases';
import { connectStomp, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient }

const rowOf = async (m: Member, roomId: number): Promise<ChatSummary | undefined> =>
  (await m.client.get<ChatSummary[]>(api.chats)).body.find((r) => r.chatRoomId === roomId);

async function roomOf(members: Member[]): Promise<number> {
  const [first, second, ...rest] = members;
  const res = await first.client.post(api.roomCreate, { targetUserId: second.user.userId, targetUserName: 'x' });
  expect(res.status, res.text).to.equal(200);
  const roomId = res.body.chatRoomId as number;
  for (const m of rest) expect((await first.client.post(api.addUser, { chatRoomId: roomId, userId: m.user.userId })).status).to.equal(200);
  return roomId;
}

forEachDatabase('chat-list rows: the peer of a two-member room', (db) => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await server?.stop();
  });
  const member = (name: string): Promise<Member> => newLoggedInUser(server, { name });

  it('names the other member with their photoVersion, follows their new photo, and is absent once a third joins', async () => {
    const [ann, ben, cat] = await Promise.all(['Ann', 'Ben', 'Cat'].map(member));
    const roomId = await roomOf([ann, ben]);
    expect((await rowOf(ann, roomId))?.peer).to.deep.equal({ userId: ben.user.userId, photoVersion: null });
    expect((await rowOf(ben, roomId))?.peer).to.deep.equal({ userId: ann.user.userId, photoVersion: null });

    const photo = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00ff00' } }).png().toBuffer();
    const put = await fetch(server.url + api.userPhoto, { method: 'PUT', headers: { cookie: ben.client.cookieHeader(), 'content-type': 'image/png' }, body: new Uint8Array(photo) });
    expect(put.status).to.equal(200);
    const { photoVersion } = (await put.json()) as { photoVersion: string };
    expect((await rowOf(ann, roomId))?.peer).to.deep.equal({ userId: ben.user.userId, photoVersion });

    expect((await ann.client.post(api.addUser, { chatRoomId: roomId, userId: cat.user.userId })).status).to.equal(200);
    const row = await rowOf(ann, roomId);
    expect(row?.memberCount).to.equal(3);
    expect(row).to.not.have.property('peer');
    expect(row).to.not.have.property('groupCall');
  });
});

function janusInstalled(): boolean {
  try {
    return execFileSync('janus', ['--help'], { encoding: 'utf8' }).includes('janus');
  } catch {
    return false;
  }
}

describe('chat-list rows: a group call on', function () {
  let server: RunningServer;
  let dir: string;
  const open: TestStomp[] = [];

  before(async function () {
    if (!janusInstalled()) {
      const message = 'janus is not installed (apt-get install janus)';
      if (IN_CI) throw new Error(`${message}: CI must run every test`);
      console.warn(`\n  !!! SKIPPING chat-list group-call rows: ${message}\n`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-list-rows-'));
    server = await startTestServer({ databaseUrl: `sqlite:${path.join(dir, 'db.sqlite3')}` });
  });
  after(async () => {
    for (const s of open.splice(0)) await s.disconnect().catch(() => undefined);
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const connected = async (m: Member): Promise<TestStomp> => {
    const stomp = await connectStomp(server, m.client.cookieHeader());
    open.push(stomp);
    return stomp;
  };
  const nextSignal = async (signals: Inbox, kind: GroupCallSignal['kind']): Promise<GroupCallSignal> => {
    for (;;) {
      const signal = (await signals.next(20_000)).json<GroupCallSignal>();
      if (signal.kind === kind) return signal;
    }
  };

  it('shows the call on every member\'s row while it is on, with its media and size, and signals each change to every member', async () => {
    const [ann, ben, cat, dan] = await Promise.all(['가', '나', '다', '라'].map((name) => newLoggedInUser(server, { name })));
    const roomId = await roomOf([ann, ben, cat]);
    const other = await roomOf([ann, dan]);
    const annStomp = await connected(ann);
    const annSignals = await annStomp.subscribe(queues.call('group-signal', ann.user.userId));
    const benStomp = await connected(ben);
    const benSignals = await benStomp.subscribe(queues.call('group-signal', ben.user.userId));
    // Cat has the chat list open and no room: the refresh topic is all she hears.
    const catRefresh = await (await connected(cat)).subscribe(topics.toggleRefresh(cat.user.userId));
    expect(await rowOf(cat, roomId)).to.not.have.property('groupCall');

    // A refresh signal, then the row as it reads now, until it reads as expected: each change is
    // followed by a signal (signals within a second are coalesced into one more at its end).
    const rowAfterSignals = async (done: (row: ChatSummary | undefined) => boolean): Promise<ChatSummary | undefined> => {
      for (;;) {
        expect((await catRefresh.next(20_000)).body).to.equal('true');
        const row = await rowOf(cat, roomId);
        if (done(row)) return row;
      }
    };

    await annStomp.send(app.groupCallStart, { chatRoomId: roomId, media: 'video' });
    const joined = await nextSignal(annSignals, 'joined');
    expect((await rowAfterSignals((r) => r?.groupCall !== undefined))?.groupCall).to.deep.equal({ media: 'video', participantCount: 1 });
    expect(await rowOf(ann, other)).to.not.have.property('groupCall');
    expect(await rowOf(dan, other)).to.not.have.property('groupCall');

    await benStomp.send(app.groupCallJoin, { chatRoomId: roomId, callId: joined.callId });
    await nextSignal(benSignals, 'joined');
    expect((await rowAfterSignals((r) => r?.groupCall?.participantCount === 2))?.groupCall).to.deep.equal({ media: 'video', participantCount: 2 });

    await benStomp.send(app.groupCallLeave, { chatRoomId: roomId, callId: joined.callId });
    await annStomp.send(app.groupCallLeave, { chatRoomId: roomId, callId: joined.callId });
    await rowAfterSignals((r) => r?.groupCall === undefined);
    expect(await rowOf(ben, roomId)).to.not.have.property('groupCall');
  });
});
