import { expect } from 'chai';
import { api, type MessageSearchResponse } from '@common/api';
import { app } from '@common/destinations';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

forEachDatabase('searching messages, Korean included', (db) => {
  let server: RunningServer;
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
    await server?.stop();
  });

  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    const stomp = await connectStomp(server, client.cookieHeader());
    open.push(stomp);
    return { user, client, stomp };
  };
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const say = (m: Member, roomId: number, content: string) => m.stomp.send(app.privateMessage, { chatRoomId: roomId, content });
  const search = async (m: Member, query: string) => m.client.get<MessageSearchResponse>(`${api.messageSearch}?${query}`);
  const found = async (m: Member, keyword: string, extra = ''): Promise<string[]> =>
    (await search(m, `keyword=${encodeURIComponent(keyword)}${extra}`)).body.results.map((r) => r.content);

  it('finds one- and two-syllable Korean words and Latin text in any case, only in the caller\'s rooms, never deleted messages, newest first', async () => {
    const a = await member('Searcher');
    const b = await member('Partner');
    const c = await member('Elsewhere');
    const mine = await roomOf(a, b);
    const theirs = await roomOf(b, c);
    await say(a, mine, '내일 회의는 3시입니다');
    await say(b, mine, '회의실 예약했어요');
    await say(b, mine, 'Meeting notes are in the DOC');
    await say(b, theirs, '비밀 회의 내용');
    await say(a, mine, '점심 뭐 먹을까');

    expect(await found(a, '회의')).to.deep.equal(['회의실 예약했어요', '내일 회의는 3시입니다']);
    expect(await found(a, '밥')).to.deep.equal([]);
    expect(await found(a, '뭐')).to.deep.equal(['점심 뭐 먹을까']);
    expect(await found(a, 'MEETING')).to.deep.equal(['Meeting notes are in the DOC']);
    expect(await found(a, 'doc')).to.deep.equal(['Meeting notes are in the DOC']);
    expect(await found(c, '회의')).to.deep.equal(['비밀 회의 내용']);

    const res = await search(a, `keyword=${encodeURIComponent('회의실')}`);
    expect(res.body.hasMore).to.equal(false);
    expect(res.body.results[0]).to.deep.include({ chatRoomId: mine, chatRoomName: 'Partner', senderName: 'Partner', content: '회의실 예약했어요' });
    expect(res.body.results[0].seq).to.equal(2);

    const id = res.body.results[0].messageId;
    await b.stomp.send(app.deleteMessage, { chatRoomId: mine, messageId: id });
    expect(await found(a, '회의')).to.deep.equal(['내일 회의는 3시입니다']);
  });

  it('finds a long phrase only where all of it stands, though only its first grams are looked up', async () => {
    const a = await member('Long');
    const b = await member('Phrase');
    const room = await roomOf(a, b);
    const phrase = '가나다라마바사아자차카타파하 그리고 끝까지 이어지는 긴 문장';
    await say(a, room, `앞 ${phrase} 뒤`);
    await say(a, room, `${phrase.slice(0, 20)} 다른 끝`);
    expect(await found(b, phrase)).to.deep.equal([`앞 ${phrase} 뒤`]);
    expect(await found(b, phrase.slice(0, 20))).to.have.length(2);
  });

  it('treats % _ and ! literally, follows the empty-keyword rules, pages by beforeId and refuses a room the caller is not in', async () => {
    const a = await member('Pager');
    const b = await member('Other');
    const roomId = await roomOf(a, b);
    const lonely = await roomOf(b, await member('Third'));
    await say(a, roomId, '100% 확실');
    await say(a, roomId, 'snake_case 이름');
    await say(a, roomId, 'wow! 대박');
    await say(a, roomId, 'back\\slash');
    for (let i = 0; i < 22; i += 1) await say(a, roomId, `반복 ${i}`);

    expect(await found(a, '%')).to.deep.equal([]);
    expect(await found(a, '   ')).to.deep.equal([]);
    expect(await found(a, '0%')).to.deep.equal(['100% 확실']);
    expect(await found(a, '_')).to.deep.equal(['snake_case 이름']);
    expect(await found(a, '!')).to.deep.equal(['wow! 대박']);
    expect(await found(a, '\\')).to.deep.equal(['back\\slash']);

    const first = (await search(a, `keyword=${encodeURIComponent('반복')}&chatRoomId=${roomId}`)).body;
    expect(first.results).to.have.length(20);
    expect(first.hasMore).to.equal(true);
    expect(first.results[0].content).to.equal('반복 21');
    const next = (await search(a, `keyword=${encodeURIComponent('반복')}&chatRoomId=${roomId}&beforeId=${first.results.at(-1)!.messageId}`)).body;
    expect(next.results.map((r) => r.content)).to.deep.equal(['반복 1', '반복 0']);
    expect(next.hasMore).to.equal(false);

    expect((await search(a, `keyword=x&chatRoomId=${lonely}`)).status).to.equal(403);
    expect((await search(a, 'keyword=x&beforeId=abc')).status).to.equal(400);
  });

  it('finds every message holding a one- or two-syllable word wherever it stands, an edited message by its new text only, never another room\'s or a deleted one', async () => {
    const a = await member('Indexer');
    const b = await member('Writer');
    const c = await member('Outsider');
    const mine = await roomOf(a, b);
    const theirs = await roomOf(b, c);
    const lines = ['회의', '회의실 예약', '오늘회의', '회 의', '회', 'x회x', '👍회의👍', '내일\n회의 있음', 'ZEBRA crossing', 'a b c', 'ab'];
    for (const line of lines) await say(b, mine, line);
    await say(b, theirs, '비밀 회의');
    await say(c, theirs, 'zebra 비밀');

    const newestFirst = (xs: string[]) => [...xs].reverse();
    expect(await found(a, '회의')).to.deep.equal(newestFirst(['회의', '회의실 예약', '오늘회의', '👍회의👍', '내일\n회의 있음']));
    expect(await found(a, '회')).to.deep.equal(newestFirst(['회의', '회의실 예약', '오늘회의', '회 의', '회', 'x회x', '👍회의👍', '내일\n회의 있음']));
    expect(await found(a, '의')).to.deep.equal(newestFirst(['회의', '회의실 예약', '오늘회의', '회 의', '👍회의👍', '내일\n회의 있음']));
    expect(await found(a, '의실')).to.deep.equal(['회의실 예약']);
    expect(await found(a, '회 의')).to.deep.equal(['회 의']);
    expect(await found(a, '늘회의')).to.deep.equal(['오늘회의']);
    expect(await found(a, 'zebra')).to.deep.equal(['ZEBRA crossing']);
    expect(await found(a, 'Ze')).to.deep.equal(['ZEBRA crossing']);
    expect(await found(a, 'bRa CROSS')).to.deep.equal(['ZEBRA crossing']);
    expect(await found(a, 'a b')).to.deep.equal(['a b c']);
    expect(await found(a, 'ab')).to.deep.equal(['ab']);
    expect(await found(c, '회의')).to.deep.equal(['비밀 회의']);

    const [reserved] = (await search(a, `keyword=${encodeURIComponent('회의실')}`)).body.results;
    await b.stomp.send(app.editMessage, { chatRoomId: mine, messageId: reserved.messageId, content: '점심 메뉴 Pasta' });
    expect(await found(a, '회의실')).to.deep.equal([]);
    expect(await found(a, '예약')).to.deep.equal([]);
    expect(await found(a, '메뉴')).to.deep.equal(['점심 메뉴 Pasta']);
    expect(await found(a, '뉴')).to.deep.equal(['점심 메뉴 Pasta']);
    expect(await found(a, 'PASTA')).to.deep.equal(['점심 메뉴 Pasta']);
    expect(await found(a, '회의')).to.deep.equal(newestFirst(['회의', '오늘회의', '👍회의👍', '내일\n회의 있음']));

    const [alone] = (await search(a, `keyword=${encodeURIComponent('x회x')}`)).body.results;
    await b.stomp.send(app.deleteMessage, { chatRoomId: mine, messageId: alone.messageId });
    expect(await found(a, '회')).to.deep.equal(newestFirst(['회의', '오늘회의', '회 의', '회', '👍회의👍', '내일\n회의 있음']));
    expect(await found(a, 'x')).to.deep.equal([]);
  });
});
