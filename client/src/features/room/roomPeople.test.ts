// Issue 26 in the open room, through the room session with fake services: the notice (history,
// event, PUT, DELETE, a deleted message), the member's muted/pinned settings (read from the chat
// list's row, PATCHed, told to the chat list), and the mentions a sent message carries.
import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatMessage, type ChatSummary, type RoomNotice, type UserSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import { eventually, FakeHttp, refuse, settle, type RecordedRequest } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { chatsLoaded } from '../chatList';
import { messageSubmitted, noticeRemoveRequested, noticeSetRequested, roomOpened, settingsChangeRequested } from './roomSlice';

const ROOM = 7;
const ME: UserSummary = { userId: 1, name: '김민지', email: 'minji@example.com' };
const KIM: UserSummary = { userId: 2, name: '김철수', email: 'kim@example.com' };
const LEE: UserSummary = { userId: 3, name: '이영희', email: 'lee@example.com' };
const NOTICE: RoomNotice = { messageId: 3, content: '금요일 7시 강남역', setByName: KIM.name, setAt: '2026-11-26T10:00:00.000Z' };

const message = (messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId, chatRoomId: ROOM, senderId: KIM.userId, senderName: KIM.name, content: `message ${messageId}`,
  enrolledAt: new Date(Date.UTC(2026, 10, 21, 10, 0, messageId)).toISOString(), clientMsgId: null, seq: messageId, ...extra,
});

const row = (extra: Partial<ChatSummary> = {}): ChatSummary => ({ chatRoomId: ROOM, chatRoomName: '김철수, 이영희', lastMessage: 'hi', lastMessageTime: null, lastReadAt: null, ...extra });

function open(routes: Record<string, (r: RecordedRequest) => unknown> = {}, notice: RoomNotice | null = NOTICE) {
  const history = (): ChatHistoryResponse => ({ totalPages: 1, chatRoomName: '김철수, 이영희', users: [ME, KIM, LEE], messages: [1, 2, 3].map((id) => message(id)), notice });
  const http = new FakeHttp({ [`GET ${api.chatHistory}`]: history, [`GET ${api.chats}`]: () => [row({ muted: true })], ...routes });
  const h = createChatTestStore(http, ME.userId);
  const room = () => h.store.getState().room;
  return { ...h, room };
}

async function openRoom(h: ReturnType<typeof open>) {
  h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
  h.stomp.connect();
  await eventually(() => h.room().status === 'ready' && h.room().connection === 'live', 'room ready');
  await settle();
}

describe('the room\'s notice, settings and mentions (issue 26)', () => {
  let h: ReturnType<typeof open>;
  afterEach(() => h?.stop());

  it('takes the notice from history, follows the notice event and drops it when its message is deleted', async () => {
    h = open();
    await openRoom(h);
    expect(h.room().notice).to.deep.equal(NOTICE);
    const events = topics.chatRoomEvents(ROOM);
    const other = { ...NOTICE, messageId: 2, content: 'message 2', setByName: LEE.name };
    h.stomp.deliver(events, { type: 'notice', chatRoomId: ROOM, notice: other });
    await eventually(() => h.room().notice?.messageId === 2, 'the new notice');
    h.stomp.deliver(events, { type: 'notice', chatRoomId: ROOM + 1, notice: NOTICE });
    h.stomp.deliver(events, { type: 'notice', chatRoomId: ROOM, notice: { messageId: 'x' } });
    await settle();
    expect(h.room().notice).to.deep.equal(other);
    h.stomp.deliver(events, { type: 'edited', chatRoomId: ROOM, messageId: 2, content: '수정됨', editedAt: '2026-11-26T11:00:00.000Z', changeSeq: 1 });
    await eventually(() => h.room().notice?.content === '수정됨', 'the notice follows its message\'s edit');
    h.stomp.deliver(events, { type: 'deleted', chatRoomId: ROOM, messageId: 2, changeSeq: 2 });
    await eventually(() => h.room().notice === null, 'gone with its message');
  });

  it('sets a message as the notice with PUT and removes it with DELETE, telling a refusal', async () => {
    let answer: () => unknown = () => NOTICE;
    h = open({ [`PUT ${api.roomNotice}`]: () => answer(), [`DELETE ${api.roomNotice}`]: () => undefined }, null);
    await openRoom(h);
    expect(h.room().notice).to.equal(null);
    h.store.dispatch(noticeSetRequested(3));
    await eventually(() => h.room().notice !== null, 'set');
    expect(h.http.requested('PUT', api.roomNotice)[0].body).to.deep.equal({ chatRoomId: ROOM, messageId: 3 });
    h.store.dispatch(noticeRemoveRequested());
    await eventually(() => h.room().notice === null, 'removed');
    expect(h.http.requested('DELETE', api.roomNotice)[0].query).to.deep.equal({ chatRoomId: ROOM });
    answer = () => refuse(404);
    h.store.dispatch(noticeSetRequested(2));
    await eventually(() => h.alerts.length === 1, 'told');
    expect(h.alerts[0]).to.equal('삭제된 메시지는 공지로 등록할 수 없습니다.');
    expect(h.room().notice).to.equal(null);
  });

  it('reads the member\'s settings from the chat list\'s row, PATCHes a change and tells the chat list', async () => {
    h = open({ [`PATCH ${api.roomSettings}`]: (r) => ({ chatRoomId: ROOM, muted: true, pinned: true, ...(r.body as object) }) });
    h.store.dispatch(chatsLoaded([row({ chatRoomId: 9 }), row({ muted: true })]));
    await openRoom(h);
    await eventually(() => h.room().settings !== null, 'settings read');
    expect(h.room().settings).to.deep.equal({ muted: true, pinned: false });
    h.store.dispatch(settingsChangeRequested({ pinned: true }));
    await eventually(() => h.room().settings?.pinned === true, 'pinned');
    expect(h.http.requested('PATCH', api.roomSettings)[0].body).to.deep.equal({ chatRoomId: ROOM, pinned: true });
    const list = h.store.getState().chatList.chats;
    expect(list.ids).to.deep.equal([ROOM, 9]);
    expect(list.entities[ROOM]).to.deep.include({ pinned: true, muted: true });
  });

  it('sends the members the text mentions (not the sender, not a name inside a word), and none when it names no one', async () => {
    h = open();
    await openRoom(h);
    h.store.dispatch(messageSubmitted('@김철수 @이영희님 내일 봐요 @김민지 me@이영희'));
    h.store.dispatch(messageSubmitted('그냥 메시지'));
    await eventually(() => h.stomp.sentTo(app.privateMessage).length === 2, 'sent');
    const [first, second] = h.stomp.sentTo(app.privateMessage) as Array<{ mentions?: number[] }>;
    expect(first.mentions).to.deep.equal([KIM.userId, LEE.userId]);
    expect(second).not.to.have.property('mentions');
  });
});
