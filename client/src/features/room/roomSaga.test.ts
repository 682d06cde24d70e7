import { expect } from 'chai';
import sinon from 'sinon';
import { api, type Attachment, type ChatHistoryResponse, type ChatMessage, type UserSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import { eventually, FakeHttp, refuse, settle, type RecordedRequest } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import {
  attachmentUploaded,
  leaveConfirmed,
  messageSubmitted,
  notificationConfirmed,
  olderRequested,
  renameSubmitted,
  replyStarted,
  resendRequested,
  roomClosed,
  roomOpened,
  selectMessages,
  selectPending,
  unsentDeleted,
} from './roomSlice';
import { SEND_TIMEOUT_MS } from './roomOutboxSaga';
import { createUnsentStore, unsentKey } from './unsentStore';

const ROOM = 7;
const ME: UserSummary = { userId: 1, name: '김민지', email: 'minji@example.com' };
const KIM: UserSummary = { userId: 2, name: '김철수', email: 'kim@example.com' };
const LEE: UserSummary = { userId: 3, name: '이영희', email: 'lee@example.com' };
const TOPIC = topics.privateChat(ROOM);
const PHOTO: Attachment = {
  attachmentId: 'QmFkYVBob3RvSWQxMjM0NQ', name: '바다.jpg', size: 52_000, contentType: 'image/jpeg', url: api.attachment('QmFkYVBob3RvSWQxMjM0NQ'), thumbnailUrl: api.attachmentThumbnail('QmFkYVBob3RvSWQxMjM0NQ'), width: 400, height: 300,
};

function message(messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    messageId,
    chatRoomId: ROOM,
    senderId: KIM.userId,
    senderName: KIM.name,
    content: `message ${messageId}`,
    enrolledAt: new Date(Date.UTC(2026, 10, 21, 10, 0, messageId)).toISOString(),
    clientMsgId: null,
    ...extra,
  };
}

/** The server's side of the room: history pages of 20 exactly as the real server cuts them. */
class RoomServer {
  messages: ChatMessage[] = [];
  name = '김민지, 김철수';
  /** Sent as history's `renamed` when set (an older server does not send it). */
  renamed: boolean | undefined = undefined;
  users = [ME, KIM];

  constructor(count: number) {
    for (let id = 1; id <= count; id += 1) this.messages.push(message(id));
  }

  history = (request: RecordedRequest): ChatHistoryResponse => {
    const query = request.query ?? {};
    const newestFirst = [...this.messages].reverse();
    const slice = query.beforeId !== undefined
      ? newestFirst.filter((m) => m.messageId < Number(query.beforeId)).slice(0, 20)
      : newestFirst.slice(Number(query.page) * 20, Number(query.page) * 20 + 20);
    const page: ChatHistoryResponse = { totalPages: Math.ceil(this.messages.length / 20), chatRoomName: this.name, users: this.users, messages: slice.reverse() };
    if (this.renamed !== undefined) page.renamed = this.renamed;
    return page;
  };

  add(m: ChatMessage): ChatMessage {
    this.messages.push(m);
    return m;
  }
}

function open(count: number, routes: Record<string, (r: RecordedRequest) => unknown> = {}) {
  const server = new RoomServer(count);
  const http = new FakeHttp({ [`GET ${api.chatHistory}`]: server.history, ...routes });
  const h = createChatTestStore(http, ME.userId);
  const room = () => h.store.getState().room;
  const messages = () => selectMessages(h.store.getState());
  const pending = () => selectPending(h.store.getState());
  const ids = () => messages().map((m) => m.messageId);
  return { ...h, server, room, messages, pending, ids };
}

type Harness = ReturnType<typeof open>;

async function openRoom(h: Harness, connect = true) {
  h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
  if (connect) h.stomp.connect();
  await eventually(() => h.room().status === 'ready', 'history loaded');
  if (connect) {
    await eventually(() => h.room().connection === 'live', 'subscribed');
    await settle();
  }
}

describe('the room session saga', () => {
  let h: Harness;
  let hasFocus: sinon.SinonStub;

  beforeEach(() => {
    hasFocus = sinon.stub(document, 'hasFocus').returns(true);
  });

  afterEach(() => {
    h?.stop();
    hasFocus.restore();
  });

  it('subscribes to the room topic, shows the newest page and unsubscribes when the room closes', async () => {
    h = open(25);
    await openRoom(h);
    expect(h.stomp.subscriptions.has(TOPIC)).to.equal(true);
    expect(h.ids()).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 6));
    expect(h.room().roomName).to.equal('김민지, 김철수');
    expect(h.room().hasOlder).to.equal(true);
    expect(h.stomp.sentTo(app.userActive)).to.deep.equal([{ chatRoomId: ROOM, userId: ME.userId }]);

    h.store.dispatch(roomClosed());
    await settle();
    expect(h.stomp.unsubscribed).to.have.members([TOPIC, topics.chatRoomEvents(ROOM)]);
    expect(h.stomp.sentTo(app.userInactive)).to.deep.equal([{ chatRoomId: ROOM, userId: ME.userId }]);
  });

  it('keeps what the room-events topic says while the first page loads: a link preview fetched meanwhile shows', async () => {
    let release = () => {};
    const loaded = new Promise<void>((resolve) => (release = resolve));
    h = open(25);
    const server = h.server;
    h.http.route(`GET ${api.chatHistory}`, async (r) => {
      await loaded;
      return server.history(r);
    });
    h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
    h.stomp.connect();
    await eventually(() => h.http.requested('GET', api.chatHistory).length === 1, 'history asked');
    const linkPreview = { url: 'https://example.com/a', title: '봄 소풍 안내', description: null, siteName: null, imageUrl: null };
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'linkPreview', chatRoomId: ROOM, messageId: 25, linkPreview });
    release();
    await eventually(() => h.room().status === 'ready', 'history loaded');
    await eventually(() => h.messages().find((m) => m.messageId === 25)?.linkPreview !== undefined, 'the preview on its message');
    expect(h.messages().find((m) => m.messageId === 25)?.linkPreview).to.deep.equal(linkPreview);
  });

  it('goes to the chat list when the history cannot be loaded', async () => {
    h = open(0, { [`GET ${api.chatHistory}`]: () => refuse(403) });
    h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
    await eventually(() => h.navigations.length === 1, 'navigated');
    expect(h.navigations[0].to).to.equal('/chat-list');
    expect(h.errors.some((e) => e.startsWith('room: chat history'))).to.equal(true);
    await settle();
    expect(h.stomp.subscriptions.size).to.equal(0);
  });

  it('shows each live message once, in messageId order, even when it was also fetched', async () => {
    h = open(3);
    await openRoom(h);
    h.stomp.deliver(TOPIC, message(3));
    h.stomp.deliver(TOPIC, message(5));
    h.stomp.deliver(TOPIC, message(4));
    h.stomp.deliver(TOPIC, message(5));
    h.stomp.deliver(TOPIC, { not: 'a message' });
    await settle();
    expect(h.ids()).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('sends with a clientMsgId and shows the message as pending until its echo arrives', async () => {
    h = open(2);
    await openRoom(h);
    h.store.dispatch(messageSubmitted('  안녕하세요  '));
    h.store.dispatch(messageSubmitted('   '));
    await settle();
    const sent = h.stomp.sentTo(app.privateMessage) as Array<{ chatRoomId: number; senderId: number; content: string; clientMsgId: string }>;
    expect(sent).to.have.length(1);
    expect(sent[0]).to.include({ chatRoomId: ROOM, senderId: ME.userId, content: '안녕하세요' });
    expect(sent[0].clientMsgId).to.match(/^[0-9a-f-]{36}$/);
    expect(h.pending().map((p) => p.content)).to.deep.equal(['안녕하세요']);

    h.stomp.deliver(TOPIC, message(3, { senderId: ME.userId, senderName: ME.name, content: '안녕하세요', clientMsgId: sent[0].clientMsgId }));
    await settle();
    expect(h.pending()).to.deep.equal([]);
    expect(h.ids()).to.deep.equal([1, 2, 3]);
  });

  it('sends a message submitted while the room was still loading, once it is open (the composer shows before the first page)', async () => {
    h = open(2);
    h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
    h.store.dispatch(messageSubmitted('방금 열었어요'));
    h.stomp.connect();
    await eventually(() => h.room().status === 'ready', 'history loaded');
    await eventually(() => h.stomp.sentTo(app.privateMessage).length === 1, 'the early message sent');
    expect(h.stomp.sentTo(app.privateMessage)[0]).to.include({ chatRoomId: ROOM, content: '방금 열었어요' });
    expect(h.pending().map((p) => p.content)).to.deep.equal(['방금 열었어요']);
  });

  it('after a lost connection fetches what it missed and sends the messages still pending, once each', async () => {
    h = open(30);
    await openRoom(h);
    h.stomp.drop();
    await eventually(() => h.room().connection === 'lost', 'connection lost shown');

    h.store.dispatch(messageSubmitted('끊긴 동안 보낸 메시지'));
    await settle();
    expect(h.stomp.published.filter((p) => p.destination === app.privateMessage)).to.have.length(0);
    expect(h.pending()).to.have.length(1);

    // 45 messages arrive while we are away: more than two pages.
    for (let id = 31; id <= 75; id += 1) h.server.add(message(id));
    const requestsBefore = h.http.requests.length;
    h.stomp.connect();
    await eventually(() => h.ids().at(-1) === 75, 'caught up');
    const catchUp = h.http.requests.slice(requestsBefore).map((r) => r.query);
    expect(catchUp).to.deep.equal([
      { chatRoomId: ROOM, page: 0 },
      { chatRoomId: ROOM, beforeId: 56 },
      { chatRoomId: ROOM, beforeId: 36 },
      // Then the edits, deletions and reactions made while away.
      { chatRoomId: ROOM, changedSince: 0 },
    ]);
    expect(h.ids()).to.deep.equal(Array.from({ length: 65 }, (_, i) => i + 11));

    await eventually(() => h.stomp.sentTo(app.privateMessage).length === 1, 'pending message sent');
    expect(h.stomp.sentTo(app.privateMessage)[0]).to.include({ content: '끊긴 동안 보낸 메시지' });
    expect(h.room().connection).to.equal('live');
  });

  it('catches up when the server asks (resync after its cluster bus was down), with the connection never lost', async () => {
    h = open(30);
    await openRoom(h);
    // Stored on another node while the bus between the nodes was down: never published here.
    for (let id = 31; id <= 33; id += 1) h.server.add(message(id));
    const requestsBefore = h.http.requests.length;
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'resync', chatRoomId: ROOM });
    await eventually(() => h.ids().at(-1) === 33, 'caught up');
    expect(h.http.requests.slice(requestsBefore).map((r) => r.query)).to.deep.equal([
      { chatRoomId: ROOM, page: 0 },
      { chatRoomId: ROOM, changedSince: 0 },
    ]);
    expect(h.room().connection).to.equal('live');
  });

  it('fetches history page 0 once when the subscription is active first, and still loads it when no connection comes', async () => {
    h = open(5);
    await openRoom(h);
    expect(h.http.requested('GET', api.chatHistory).map((r) => r.query)).to.deep.equal([{ chatRoomId: ROOM, page: 0 }]);
    h.stop();

    h = open(5);
    h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
    await eventually(() => h.room().status === 'ready', 'history loaded without a connection');
    expect(h.ids()).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('marks a send failed after 10 s without its echo; 재전송 sends it again with the same clientMsgId, 삭제 drops it', async () => {
    const clock = sinon.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      h = open(2);
      await openRoom(h);
      h.store.dispatch(messageSubmitted('첫째'));
      h.store.dispatch(messageSubmitted('둘째'));
      await settle();
      await clock.tickAsync(SEND_TIMEOUT_MS - 1000);
      expect(h.pending().map((p) => p.failed)).to.deep.equal([false, false]);
      await clock.tickAsync(1500);
      await eventually(() => h.pending().every((p) => p.failed), 'both failed');

      const [first, second] = h.pending();
      h.store.dispatch(resendRequested(first.clientMsgId));
      await settle();
      const sent = h.stomp.sentTo(app.privateMessage) as Array<{ clientMsgId: string }>;
      expect(sent.map((m) => m.clientMsgId)).to.deep.equal([first.clientMsgId, second.clientMsgId, first.clientMsgId]);
      expect(h.pending().map((p) => p.failed)).to.deep.equal([false, true]);

      h.store.dispatch(unsentDeleted(second.clientMsgId));
      await settle();
      expect(h.pending().map((p) => p.content)).to.deep.equal(['첫째']);
      // The resend gets its own 10 s.
      await clock.tickAsync(SEND_TIMEOUT_MS + 500);
      await eventually(() => h.pending()[0]?.failed === true, 'failed again');
    } finally {
      clock.restore();
    }
  });

  it('keeps unconfirmed sends in storage: after a reload they show as failed and go out once, in order, when the connection returns', async () => {
    h = open(2);
    await openRoom(h, false);
    h.store.dispatch(messageSubmitted('하나'));
    h.store.dispatch(messageSubmitted('둘'));
    await settle();
    const unsent = h.unsent;
    await eventually(() => unsent.read(ME.userId, ROOM).length === 2, 'stored');
    h.stop();

    // "Reload": a new store on the same storage.
    const server = new RoomServer(2);
    const reloaded = createChatTestStore(new FakeHttp({ [`GET ${api.chatHistory}`]: server.history }), ME.userId, unsent);
    try {
      reloaded.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
      await eventually(() => reloaded.store.getState().room.status === 'ready', 'history loaded');
      expect(selectPending(reloaded.store.getState()).map((p) => [p.content, p.failed])).to.deep.equal([['하나', true], ['둘', true]]);
      expect(reloaded.stomp.sentTo(app.privateMessage)).to.deep.equal([]);

      reloaded.stomp.connect();
      await eventually(() => reloaded.stomp.sentTo(app.privateMessage).length === 2, 'sent again');
      await settle();
      const sent = reloaded.stomp.sentTo(app.privateMessage) as Array<{ content: string; clientMsgId: string }>;
      expect(sent.map((m) => m.content)).to.deep.equal(['하나', '둘']);

      sent.forEach((m, i) => reloaded.stomp.deliver(TOPIC, message(3 + i, { senderId: ME.userId, senderName: ME.name, content: m.content, clientMsgId: m.clientMsgId })));
      await settle();
      expect(selectPending(reloaded.store.getState())).to.deep.equal([]);
      await eventually(() => unsent.read(ME.userId, ROOM).length === 0, 'storage emptied once confirmed');
    } finally {
      reloaded.stop();
    }
  });

  it('keeps a reply\'s quote and an upload\'s attachment through a reload: the sends after it carry replyToMessageId and attachmentId', async () => {
    // The browser's own storage, as the app uses it (lateServices.ts).
    window.localStorage.removeItem(unsentKey(ME.userId, ROOM));
    const unsent = createUnsentStore(window.localStorage);
    const server = new RoomServer(2);
    const first = createChatTestStore(new FakeHttp({ [`GET ${api.chatHistory}`]: server.history }), ME.userId, unsent);
    const quote = { messageId: 2, senderName: KIM.name, content: 'message 2' };
    try {
      first.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
      await eventually(() => first.store.getState().room.status === 'ready', 'history loaded');
      first.store.dispatch(replyStarted(quote));
      first.store.dispatch(messageSubmitted('답장이에요'));
      first.store.dispatch(attachmentUploaded({ chatRoomId: ROOM, attachment: PHOTO }));
      await eventually(() => unsent.read(ME.userId, ROOM).length === 2, 'stored');
    } finally {
      first.stop();
    }

    const reloaded = createChatTestStore(new FakeHttp({ [`GET ${api.chatHistory}`]: server.history }), ME.userId, createUnsentStore(window.localStorage));
    try {
      reloaded.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME.userId }));
      await eventually(() => reloaded.store.getState().room.status === 'ready', 'history loaded');
      const restored = selectPending(reloaded.store.getState());
      expect(restored.map((p) => [p.content, p.replyTo, p.attachment, p.failed])).to.deep.equal([
        ['답장이에요', quote, undefined, true],
        ['', undefined, PHOTO, true],
      ]);

      reloaded.stomp.connect();
      await eventually(() => reloaded.stomp.sentTo(app.privateMessage).length === 2, 'sent again');
      const sent = reloaded.stomp.sentTo(app.privateMessage) as Array<Record<string, unknown>>;
      expect(sent[0]).to.include({ chatRoomId: ROOM, content: '답장이에요', replyToMessageId: 2, clientMsgId: restored[0].clientMsgId });
      expect(sent[0]).to.not.have.property('attachmentId');
      expect(sent[1]).to.include({ chatRoomId: ROOM, content: '', attachmentId: PHOTO.attachmentId, clientMsgId: restored[1].clientMsgId });
      expect(sent[1]).to.not.have.property('replyToMessageId');
    } finally {
      reloaded.stop();
      window.localStorage.removeItem(unsentKey(ME.userId, ROOM));
    }
  });

  it('sends an upload that finished while offline when the connection returns, once, with its clientMsgId', async () => {
    h = open(2);
    await openRoom(h);
    h.stomp.drop();
    await eventually(() => h.room().connection === 'lost', 'connection lost shown');

    h.store.dispatch(attachmentUploaded({ chatRoomId: ROOM, attachment: PHOTO }));
    await settle();
    expect(h.stomp.sentTo(app.privateMessage)).to.deep.equal([]);
    expect(h.pending().map((p) => p.attachment)).to.deep.equal([PHOTO]);
    expect(h.unsent.read(ME.userId, ROOM).map((p) => p.attachment)).to.deep.equal([PHOTO]);

    h.stomp.connect();
    await eventually(() => h.stomp.sentTo(app.privateMessage).length === 1, 'sent on reconnect');
    const [sent] = h.stomp.sentTo(app.privateMessage) as Array<{ attachmentId: string; clientMsgId: string; content: string }>;
    expect(sent).to.include({ attachmentId: PHOTO.attachmentId, content: '', clientMsgId: h.pending()[0].clientMsgId });

    h.stomp.deliver(TOPIC, message(3, { senderId: ME.userId, senderName: ME.name, content: '', clientMsgId: sent.clientMsgId, attachment: PHOTO }));
    await settle();
    expect(h.pending()).to.deep.equal([]);
    expect(h.messages().at(-1)?.attachment).to.deep.equal(PHOTO);
    // Confirmed: another reconnect sends nothing again.
    h.stomp.drop();
    h.stomp.connect();
    await eventually(() => h.room().connection === 'live', 'live again');
    await settle();
    expect(h.stomp.sentTo(app.privateMessage)).to.have.length(1);
  });

  it('sends photos uploaded together as one message with attachmentIds, kept in order in the unsent store while offline', async () => {
    const second = { ...PHOTO, attachmentId: 'B'.repeat(22), url: `/api/attachments/${'B'.repeat(22)}`, thumbnailUrl: `/api/attachments/${'B'.repeat(22)}/thumbnail` };
    h = open(2);
    await openRoom(h);
    h.stomp.drop();
    await eventually(() => h.room().connection === 'lost', 'connection lost shown');
    h.store.dispatch(attachmentUploaded({ chatRoomId: ROOM, attachment: PHOTO, attachments: [PHOTO, second] }));
    await settle();
    expect(h.unsent.read(ME.userId, ROOM).map((p) => p.attachments)).to.deep.equal([[PHOTO, second]]);

    h.stomp.connect();
    await eventually(() => h.stomp.sentTo(app.privateMessage).length === 1, 'sent on reconnect');
    const [sent] = h.stomp.sentTo(app.privateMessage) as Array<Record<string, unknown>>;
    expect(sent.attachmentIds).to.deep.equal([PHOTO.attachmentId, second.attachmentId]);
    expect(sent.attachmentId).to.equal(undefined);
  });

  it('drops a pending message that the catch-up shows was already stored, instead of sending it again', async () => {
    h = open(2);
    await openRoom(h);
    h.store.dispatch(messageSubmitted('전송 직후 끊김'));
    await settle();
    const [sent] = h.stomp.sentTo(app.privateMessage) as Array<{ clientMsgId: string }>;
    h.stomp.drop();
    h.server.add(message(3, { senderId: ME.userId, content: '전송 직후 끊김', clientMsgId: sent.clientMsgId }));
    h.stomp.connect();
    await eventually(() => h.ids().at(-1) === 3, 'caught up');
    await settle();
    expect(h.pending()).to.deep.equal([]);
    expect(h.stomp.sentTo(app.privateMessage)).to.have.length(1);
  });

  it('loads older pages by beforeId at the top and stops when a page comes back short', async () => {
    h = open(45);
    await openRoom(h);
    h.store.dispatch(olderRequested());
    await eventually(() => h.ids()[0] === 6, 'second page');
    expect(h.room().hasOlder).to.equal(true);
    h.store.dispatch(olderRequested());
    await eventually(() => h.ids()[0] === 1, 'third page');
    expect(h.room().hasOlder).to.equal(false);
    expect(h.ids()).to.have.length(45);

    const pages = h.http.requested('GET', api.chatHistory).map((r) => r.query);
    h.store.dispatch(olderRequested());
    await settle();
    expect(h.http.requested('GET', api.chatHistory).map((r) => r.query)).to.deep.equal(pages);
    expect(pages.filter((q) => q && 'beforeId' in q)).to.deep.equal([
      { chatRoomId: ROOM, beforeId: 26 },
      { chatRoomId: ROOM, beforeId: 6 },
    ]);
  });

  it('reports the user inactive on blur and active on focus, counting others\' messages in between', async () => {
    h = open(1);
    await openRoom(h);
    window.dispatchEvent(new window.Event('blur'));
    await eventually(() => h.stomp.sentTo(app.userInactive).length === 1, 'inactive published');
    expect(h.room().active).to.equal(false);

    h.stomp.deliver(TOPIC, message(2));
    h.stomp.deliver(TOPIC, message(3));
    h.stomp.deliver(TOPIC, message(4, { senderId: ME.userId }));
    h.stomp.deliver(TOPIC, message(5, { senderId: null, senderName: '새 이름', content: '"김철수"님이 채팅 이름을 "새 이름" (으)로 변경하였습니다' }));
    await settle();
    expect(h.room().unseenCount).to.equal(2);

    window.dispatchEvent(new window.Event('focus'));
    await eventually(() => h.stomp.sentTo(app.userActive).length === 2, 'active published again');
    expect(h.room().unseenCount).to.equal(0);
  });

  it('follows system messages from their structured fields: a rename renames, an add adds the user, a leave removes the leaver', async () => {
    h = open(1);
    await openRoom(h);
    h.stomp.deliver(TOPIC, message(2, {
      senderId: null, senderName: '우리 방', content: '"김철수"님이 채팅 이름을 "우리 방" (으)로 변경하였습니다',
      systemEvent: { type: 'renamed', actorUserId: KIM.userId, actorName: KIM.name, newName: '우리 방' },
    }));
    h.stomp.deliver(TOPIC, message(3, {
      senderId: null, senderName: '우리 방', content: `"${ME.name}" 님이 "${LEE.name}" 님을 추가했습니다`, addedUserEmail: LEE.email,
      systemEvent: { type: 'added', actorUserId: ME.userId, actorName: ME.name, targetUserId: LEE.userId, targetName: LEE.name },
    }));
    await eventually(() => h.room().users.length === 3, 'added user shown');
    expect(h.room().roomName).to.equal('우리 방');
    expect(h.room().users[2]).to.deep.equal(LEE);
    // The message names the added user: no search by e-mail, no parsing of the Korean text.
    expect(h.http.requested('GET', api.roomSearch)).to.deep.equal([]);

    h.stomp.deliver(TOPIC, message(4, {
      senderId: null, senderName: '우리 방', content: '"김철수"님이 채팅에서 나갔습니다', leftUserId: KIM.userId,
      systemEvent: { type: 'left', actorUserId: KIM.userId, actorName: KIM.name },
    }));
    await settle();
    expect(h.room().users.map((u) => u.userId)).to.deep.equal([ME.userId, LEE.userId]);
    expect(h.navigations).to.deep.equal([]);
  });

  it('names a room no one renamed again as members are added and leave, from the viewer\'s side, until someone renames it', async () => {
    h = open(1);
    h.server.name = KIM.name;
    h.server.renamed = false;
    await openRoom(h);
    expect(h.room().roomName).to.equal(KIM.name);
    h.stomp.deliver(TOPIC, message(2, {
      senderId: null, senderName: `${ME.name}, ${KIM.name}`, content: `"${ME.name}" 님이 "${LEE.name}" 님을 추가했습니다`, addedUserEmail: LEE.email,
      systemEvent: { type: 'added', actorUserId: ME.userId, actorName: ME.name, targetUserId: LEE.userId, targetName: LEE.name },
    }));
    await eventually(() => h.room().users.length === 3, 'added user shown');
    expect(h.room().roomName).to.equal(`${KIM.name}, ${LEE.name}`);
    h.stomp.deliver(TOPIC, message(3, {
      senderId: null, senderName: `${ME.name}, ${KIM.name}`, content: `"${KIM.name}"님이 채팅에서 나갔습니다`, leftUserId: KIM.userId,
      systemEvent: { type: 'left', actorUserId: KIM.userId, actorName: KIM.name },
    }));
    await eventually(() => h.room().users.length === 2, 'leaver removed');
    expect(h.room().roomName).to.equal(LEE.name);
    h.stomp.deliver(TOPIC, message(4, {
      senderId: null, senderName: '우리 방', content: `"${LEE.name}"님이 채팅 이름을 "우리 방" (으)로 변경하였습니다`,
      systemEvent: { type: 'renamed', actorUserId: LEE.userId, actorName: LEE.name, newName: '우리 방' },
    }));
    h.stomp.deliver(TOPIC, message(5, {
      senderId: null, senderName: '우리 방', content: `"${ME.name}" 님이 "${KIM.name}" 님을 추가했습니다`, addedUserEmail: KIM.email,
      systemEvent: { type: 'added', actorUserId: ME.userId, actorName: ME.name, targetUserId: KIM.userId, targetName: KIM.name },
    }));
    await eventually(() => h.room().users.length === 3, 'added again');
    expect(h.room().roomName).to.equal('우리 방');
  });

  it('goes to the chat list when a leave message names the user (left from another device)', async () => {
    h = open(1);
    await openRoom(h);
    h.stomp.deliver(TOPIC, message(2, { senderId: null, senderName: 'x', content: `"${ME.name}"님이 채팅에서 나갔습니다`, leftUserId: ME.userId }));
    await eventually(() => h.navigations.length === 1, 'navigated');
    expect(h.navigations[0].to).to.equal('/chat-list');
    expect(h.stomp.unsubscribed).to.have.members([TOPIC, topics.chatRoomEvents(ROOM)]);
  });

  it('goes to the chat list when the catch-up after a reconnect answers 403 (left on another device meanwhile)', async () => {
    h = open(1);
    await openRoom(h);
    h.http.route(`GET ${api.chatHistory}`, () => refuse(403));
    h.stomp.drop();
    h.stomp.connect();
    await eventually(() => h.navigations.length === 1, 'navigated');
    expect(h.navigations[0].to).to.equal('/chat-list');
    expect(h.errors.filter((e) => e.startsWith('room: catch up'))).to.deep.equal([]);
  });

  it('leaves through the server and then goes to the chat list; a failed leave is only logged', async () => {
    let fail = true;
    h = open(1, { [`DELETE ${api.leaveChat}`]: () => (fail ? refuse(500) : undefined) });
    await openRoom(h);
    h.store.dispatch(leaveConfirmed());
    await eventually(() => h.errors.some((e) => e.startsWith('room: leave')), 'failure logged');
    expect(h.navigations).to.deep.equal([]);

    fail = false;
    h.store.dispatch(leaveConfirmed());
    await eventually(() => h.navigations.length === 1, 'navigated');
    expect(h.navigations[0].to).to.equal('/chat-list');
    expect(h.http.requested('DELETE', api.leaveChat).at(-1)?.query).to.deep.equal({ chatRoomId: ROOM });
  });

  it('renames with the trimmed name and never submits a blank or over-long one', async () => {
    h = open(1, { [`POST ${api.updateSubject}`]: () => undefined });
    await openRoom(h);
    h.store.dispatch(renameSubmitted('   '));
    h.store.dispatch(renameSubmitted('가'.repeat(51)));
    h.store.dispatch(renameSubmitted('  주말 계획  '));
    await eventually(() => h.room().roomName === '주말 계획', 'renamed');
    expect(h.http.requested('POST', api.updateSubject).map((r) => r.body)).to.deep.equal([{ chatRoomId: ROOM, chatRoomName: '주말 계획' }]);
  });

  it('sends the e-mail notification once (sending, then done) and explains the 3-minute limit on 429', async () => {
    let status = 429;
    h = open(1, { [`POST ${api.notificationSend}`]: () => (status === 200 ? undefined : refuse(status)) });
    await openRoom(h);

    h.store.dispatch(notificationConfirmed());
    await eventually(() => h.alerts.length === 1, 'alerted');
    expect(h.alerts[0]).to.equal('이메일 전송에 실패했습니다. 알림 메일은 3분에 한 번만 보낼 수 있습니다.');
    expect(h.room().notification).to.equal('idle');

    status = 502;
    h.store.dispatch(notificationConfirmed());
    await eventually(() => h.alerts.length === 2, 'alerted again');
    expect(h.alerts[1]).to.equal('알림 메일 전송에 실패했습니다. 잠시 후 다시 시도해주세요.');

    status = 200;
    h.store.dispatch(notificationConfirmed());
    expect(h.room().notification).to.equal('sending');
    await eventually(() => h.room().notification === 'done', 'done');
    expect(h.http.requested('POST', api.notificationSend).map((r) => r.body)).to.deep.equal([
      { chatRoomId: ROOM }, { chatRoomId: ROOM }, { chatRoomId: ROOM },
    ]);
  });
});
