import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { expect } from 'chai';
import { api, type ChatSummary } from '@common/api';
import { createFakeServices, eventually, type FakeNotifier, type FakeStomp, settle, type FakeServices } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import { allFeatures } from '../../app/allFeatures';
import { createAppStore } from '../../app/store';
import { AppShell } from '../../app/AppShell';
import { signedInHosts } from '../../app/signedInHosts.test-support';
import { UID_KEY } from '../../services/uid';
import { topics } from '@common/destinations';
import { callActions } from '../call';
import { chatsLoaded } from '../chatList';
import { messageReceived, roomOpened } from '../room';
import { notificationsActions } from './notificationsSlice';
import { NotificationsSwitch } from './NotificationsSwitch';
import { newlyUnread, NOTIFICATIONS_OFF_KEY, PROMPT_DISMISSED_KEY } from './notificationsSaga';

const ME = 1;
const PUBLIC_KEY = `B${'x'.repeat(86)}`;

function setUp(permission: FakeNotifier['state'] = 'default') {
  const services = createFakeServices(
    { [`GET ${api.pushPublicKey}`]: () => ({ publicKey: PUBLIC_KEY }), [`POST ${api.pushSubscriptions}`]: () => ({ status: 'success' }) },
    ME,
  );
  const notifier = services.notifier as FakeNotifier;
  notifier.state = permission;
  const store = createAppStore(services, { features: allFeatures });
  return { services, notifier, store };
}

function chat(id: number, lastMessageTime: string | null, lastReadAt: string | null, lastMessage = 'hello'): ChatSummary {
  return { chatRoomId: id, chatRoomName: `Room ${id}`, lastMessage, lastMessageTime, lastReadAt };
}

const subscriptionsPosted = (services: FakeServices) => services.requests.filter((r) => r.method === 'POST' && r.path === api.pushSubscriptions);
const subscriptionsDeleted = (services: FakeServices) => services.requests.filter((r) => r.method === 'DELETE' && r.path === api.pushSubscriptions);

const chatReads = (services: FakeServices) => services.requests.filter((r) => r.method === 'GET' && r.path === api.chats).length;

/** The server's list of rooms answers `current`; each signal on the user's refresh topic has it read again. */
function withRooms(services: FakeServices, first: ChatSummary[]) {
  let current = first;
  services.route(`GET ${api.chats}`, () => current);
  const stomp = services.stomp as FakeStomp;
  return {
    /** The list changes without a signal (yet). */
    set(next: ChatSummary[]) {
      current = next;
    },
    /** A message lands in a room: the list changes and the server signals. */
    async news(next: ChatSummary[]) {
      const reads = chatReads(services);
      current = next;
      stomp.deliver(topics.toggleRefresh(ME), true);
      await eventually(() => chatReads(services) === reads + 1, 'the list read again');
      await settle();
    },
  };
}

describe('system notifications and the push subscription', () => {
  it('asks for permission only when the prompt is pressed, then subscribes this device to push', async () => {
    const { services, notifier, store } = setUp('default');
    store.dispatch(notificationsActions.started());
    await settle();
    expect(notifier.asked).to.equal(0);
    expect(subscriptionsPosted(services)).to.deep.equal([]);
    expect(store.getState().notifications.permission).to.equal('default');

    store.dispatch(notificationsActions.enableClicked());
    await eventually(() => subscriptionsPosted(services).length === 1, 'subscription posted');
    expect(notifier.asked).to.equal(1);
    expect(notifier.subscribedWith).to.deep.equal([PUBLIC_KEY]);
    expect(subscriptionsPosted(services)[0].body).to.deep.equal(notifier.subscription);
    expect(store.getState().notifications.permission).to.equal('granted');
  });

  it('keeps the push subscription current on every start once notifications are allowed', async () => {
    const { services, notifier, store } = setUp('granted');
    store.dispatch(notificationsActions.started());
    await eventually(() => subscriptionsPosted(services).length === 1, 'subscription posted');
    expect(notifier.asked).to.equal(0);
  });

  it('subscribes nothing when the user refuses', async () => {
    const { services, notifier, store } = setUp('default');
    notifier.answer = 'denied';
    store.dispatch(notificationsActions.started());
    store.dispatch(notificationsActions.enableClicked());
    await eventually(() => store.getState().notifications.permission === 'denied', 'permission read');
    await settle();
    expect(subscriptionsPosted(services)).to.deep.equal([]);
  });

  it('notifies a hidden tab of an incoming call and of a message from someone else, not of its own', async () => {
    const { notifier, store } = setUp('granted');
    store.dispatch(notificationsActions.started());
    store.dispatch(callActions.incomingReceived({ userId: 2, name: 'Kim' }));
    const base = { senderName: 'Kim', content: '안녕', enrolledAt: '2026-11-25T08:00:00.000Z' };
    store.dispatch(messageReceived({ ...base, messageId: 10, chatRoomId: 5, senderId: 2 }));
    store.dispatch(messageReceived({ ...base, messageId: 11, chatRoomId: 5, senderId: ME }));
    await eventually(() => notifier.shown.length === 2, 'two notifications');
    await settle();
    expect(notifier.shown.map((n) => [n.title, n.body, n.url])).to.deep.equal([
      ['전화가 왔습니다', 'Kim님의 전화 · 음성통화', '/chat-list'],
      ['Kim', '안녕', '/chat-room?cri=5'],
    ]);
    expect(notifier.shown[0].focusOnly).to.equal(true);
  });

  it('notifies of rooms on the chat list that got a new unread message since the last load', async () => {
    const { notifier, store } = setUp('granted');
    store.dispatch(notificationsActions.started());
    store.dispatch(chatsLoaded([chat(1, '2026-11-25T08:00:00Z', null), chat(2, '2026-11-25T08:00:00Z', '2026-11-25T08:00:00Z')]));
    await settle();
    expect(notifier.shown).to.deep.equal([]);
    store.dispatch(chatsLoaded([chat(1, '2026-11-25T08:00:00Z', null), chat(2, '2026-11-25T08:05:00Z', '2026-11-25T08:00:00Z', '새 소식')]));
    await eventually(() => notifier.shown.length === 1, 'one notification');
    expect(notifier.shown[0]).to.include({ title: 'Room 2', body: '새 소식', url: '/chat-room?cri=2' });
  });

  it('notifies of a message in another room while a room is open, the tab visible, and not of the open room', async () => {
    const { services, notifier, store } = setUp('granted');
    notifier.tabHidden = false;
    services.path = '/chat-room';
    services.route(`GET ${api.chatHistory}`, () => ({ totalPages: 1, chatRoomName: 'Room 1', users: [], messages: [] }));
    store.dispatch(roomOpened({ chatRoomId: 1, userId: ME }));
    const rooms = withRooms(services, [chat(1, '2026-11-25T08:00:00Z', '2026-11-25T08:00:00Z'), chat(2, '2026-11-25T08:00:00Z', '2026-11-25T08:00:00Z')]);
    store.dispatch(notificationsActions.started());
    (services.stomp as FakeStomp).connect();
    // The open room reads the list once too, for its muted/pinned settings.
    await eventually(() => chatReads(services) === 3, 'the list read at the start, once subscribed and by the room');
    await settle();
    await rooms.news([chat(1, '2026-11-25T08:01:00Z', '2026-11-25T08:00:00Z', '여기'), chat(2, '2026-11-25T08:00:00Z', '2026-11-25T08:00:00Z')]);
    expect(notifier.shown).to.deep.equal([]);
    await rooms.news([chat(1, '2026-11-25T08:01:00Z', '2026-11-25T08:00:00Z', '여기'), chat(2, '2026-11-25T08:02:00Z', '2026-11-25T08:00:00Z', '저기')]);
    expect(notifier.shown.map((n) => [n.title, n.body, n.url])).to.deep.equal([['Room 2', '저기', '/chat-room?cri=2']]);
  });

  it('reads the list once for a burst of signals that came while it waited, and tells the newest message', async () => {
    const { services, notifier, store } = setUp('granted');
    notifier.tabHidden = true;
    services.path = '/find-user';
    const rooms = withRooms(services, [chat(2, '2026-11-25T08:00:00Z', '2026-11-25T08:00:00Z')]);
    store.dispatch(notificationsActions.started());
    (services.stomp as FakeStomp).connect();
    await eventually(() => chatReads(services) === 2, 'the list read at the start and once subscribed');
    await rooms.news([chat(2, '2026-11-25T08:01:00Z', '2026-11-25T08:00:00Z', '하나')]);
    const before = chatReads(services);
    const stomp = services.stomp as FakeStomp;
    for (const body of ['둘', '셋', '넷', '다섯']) {
      rooms.set([chat(2, `2026-11-25T08:0${body.length + 1}:${body.length}0Z`, '2026-11-25T08:00:00Z', body)]);
      stomp.deliver(topics.toggleRefresh(ME), true);
    }
    await eventually(() => chatReads(services) === before + 1, 'one read for the burst');
    await settle();
    expect(chatReads(services)).to.equal(before + 1);
    expect(notifier.shown.map((n) => n.body)).to.deep.equal(['하나', '다섯']);
  });

  it('notifies of any room while the tab is hidden, and of none while the chat list shows', async () => {
    const { services, notifier, store } = setUp('granted');
    notifier.tabHidden = false;
    services.path = '/chat-list';
    store.dispatch(notificationsActions.started());
    store.dispatch(chatsLoaded([chat(3, '2026-11-25T08:00:00Z', null)]));
    store.dispatch(chatsLoaded([chat(3, '2026-11-25T08:01:00Z', null, '보이는 목록')]));
    await settle();
    expect(notifier.shown).to.deep.equal([]);
    notifier.tabHidden = true;
    store.dispatch(chatsLoaded([chat(3, '2026-11-25T08:02:00Z', null, '숨은 탭')]));
    await eventually(() => notifier.shown.length === 1, 'one notification');
    expect(notifier.shown[0]).to.include({ body: '숨은 탭', url: '/chat-room?cri=3' });
  });

  it('turned off, shows nothing and ends the push subscription in the browser and on the server', async () => {
    const { services, notifier, store } = setUp('granted');
    services.route(`DELETE ${api.pushSubscriptions}`, () => ({ status: 'success' }));
    const endpoint = notifier.subscription!.endpoint;
    store.dispatch(notificationsActions.started());
    await eventually(() => subscriptionsPosted(services).length === 1, 'subscription posted');
    store.dispatch(notificationsActions.turnedOff());
    await eventually(() => subscriptionsDeleted(services).length === 1, 'subscription deleted');
    expect(subscriptionsDeleted(services)[0].body).to.deep.equal({ endpoint });
    expect(notifier.unsubscribed).to.deep.equal([endpoint]);
    expect(services.storage.getItem(NOTIFICATIONS_OFF_KEY)).to.equal('1');
    store.dispatch(callActions.incomingReceived({ userId: 2, name: 'Kim' }));
    await settle();
    expect(notifier.shown).to.deep.equal([]);

    // Still off on the next start: no subscription, until turned on again.
    store.dispatch(notificationsActions.stopped());
    store.dispatch(notificationsActions.started());
    await settle();
    expect(subscriptionsPosted(services)).to.have.length(1);
    expect(store.getState().notifications.off).to.equal(true);
    store.dispatch(notificationsActions.enableClicked());
    await eventually(() => subscriptionsPosted(services).length === 2, 'subscribed again');
    expect(notifier.asked).to.equal(0);
    expect(services.storage.getItem(NOTIFICATIONS_OFF_KEY)).to.equal(null);
  });

  it('opens the room of a clicked notification', async () => {
    const { services, notifier, store } = setUp('granted');
    store.dispatch(notificationsActions.started());
    await settle();
    notifier.click('/chat-room?cri=9');
    notifier.click('');
    await eventually(() => services.navigations.length === 1, 'navigated');
    expect(services.navigations.map((n) => n.to)).to.deep.equal(['/chat-room?cri=9']);
  });

  it('remembers the prompt put aside', async () => {
    const { services, store } = setUp('default');
    store.dispatch(notificationsActions.promptDismissed());
    expect(services.storage.getItem(PROMPT_DISMISSED_KEY)).to.equal('1');
    store.dispatch(notificationsActions.started());
    await eventually(() => store.getState().notifications.permission === 'default', 'permission read');
    expect(store.getState().notifications.promptDismissed).to.equal(true);
  });

  it('keeps a muted open room silent in a hidden tab, except for a message that mentions the member', async () => {
    const { services, notifier, store } = setUp('granted');
    services.route(`GET ${api.chatHistory}`, () => ({ totalPages: 1, chatRoomName: 'Room 5', users: [], messages: [], notice: null }));
    services.route(`GET ${api.chats}`, () => [{ ...chat(5, null, null), muted: true }]);
    store.dispatch(roomOpened({ chatRoomId: 5, userId: ME }));
    (services.stomp as FakeStomp).connect();
    await eventually(() => store.getState().room.settings?.muted === true, 'the room\'s settings read');
    store.dispatch(notificationsActions.started());
    await eventually(() => store.getState().notifications.permission === 'granted', 'permission read');
    const base = { senderName: 'Kim', enrolledAt: '2026-11-25T08:00:00.000Z', chatRoomId: 5, senderId: 2 };
    store.dispatch(messageReceived({ ...base, messageId: 10, content: '조용히' }));
    store.dispatch(messageReceived({ ...base, messageId: 11, content: '@Me 봐주세요', mentions: [ME] }));
    store.dispatch(messageReceived({ ...base, messageId: 12, content: '@Lee 봐주세요', mentions: [3] }));
    await eventually(() => notifier.shown.length === 1, 'one notification');
    await settle();
    expect(notifier.shown.map((n) => n.body)).to.deep.equal(['@Me 봐주세요']);
  });

  it('leaves muted rooms out of the other rooms\' news unless an unread message mentions the member', () => {
    const previous = new Map<number, string | null>([[1, 'a'], [2, 'b'], [3, 'c']]);
    const now = [{ ...chat(1, 'x', null), muted: true as const }, { ...chat(2, 'y', null), muted: true as const, mentioned: true as const }, chat(3, 'z', null)];
    expect(newlyUnread(previous, now).map((c) => c.chatRoomId)).to.deep.equal([2, 3]);
  });

  it('picks only rooms whose last message changed and is unread', () => {
    const previous = new Map<number, string | null>([[1, 'a'], [2, 'b'], [3, null]]);
    const now = [chat(1, 'a', null), chat(2, '2026-11-25T08:05:00Z', '2026-11-25T08:00:00Z'), chat(3, '2026-11-25T08:05:00Z', '2026-11-25T09:00:00Z'), chat(4, '2026-11-25T08:05:00Z', null)];
    expect(newlyUnread(previous, now).map((c) => c.chatRoomId)).to.deep.equal([2]);
  });
});

describe('the notification prompt', () => {
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
  });

  function renderAt(path: string) {
    window.localStorage.setItem(UID_KEY, String(ME));
    const services = createFakeServices({ [`GET ${api.pushPublicKey}`]: () => ({ publicKey: PUBLIC_KEY }), [`POST ${api.pushSubscriptions}`]: () => ({}) }, ME);
    const routes = [{ element: <AppShell hosts={signedInHosts} />, children: [{ path: '/chat-list', element: <p>list</p> }, { path: '/user-settings', element: <p>settings</p> }] }];
    return { services, ...renderApp(services, routes, path) };
  }

  it('offers notifications on the chat list and asks the browser only on the button', async () => {
    const { services } = renderAt('/chat-list');
    const prompt = await screen.findByTestId('notification-prompt');
    expect(prompt.textContent).to.contain('새 메시지와 걸려 온 전화를 알림으로 받아보세요.');
    expect((services.notifier as FakeNotifier).asked).to.equal(0);
    fireEvent.click(screen.getByRole('button', { name: '알림 켜기' }));
    await eventually(() => screen.queryByTestId('notification-prompt') === null, 'prompt gone once allowed');
    expect((services.notifier as FakeNotifier).asked).to.equal(1);
  });

  it('is put aside with 나중에, and never shown on other screens', async () => {
    renderAt('/chat-list');
    fireEvent.click(await screen.findByRole('button', { name: '나중에' }));
    expect(screen.queryByTestId('notification-prompt')).to.equal(null);
    cleanup();
    renderAt('/user-settings');
    await act(settle);
    expect(screen.queryByTestId('notification-prompt')).to.equal(null);
  });

  it('offers a switch in the settings that turns notifications off on this device', async () => {
    window.localStorage.setItem(UID_KEY, String(ME));
    const services = createFakeServices(
      { [`GET ${api.pushPublicKey}`]: () => ({ publicKey: PUBLIC_KEY }), [`POST ${api.pushSubscriptions}`]: () => ({}), [`DELETE ${api.pushSubscriptions}`]: () => ({}), [`GET ${api.chats}`]: () => [] },
      ME,
    );
    (services.notifier as FakeNotifier).state = 'granted';
    renderApp(services, [{ element: <AppShell hosts={signedInHosts} />, children: [{ path: '/user-settings', element: <NotificationsSwitch /> }] }], '/user-settings');
    const toggle = (await screen.findByRole('switch', { name: '이 기기에서 알림 받기' })) as HTMLInputElement;
    expect(toggle.checked).to.equal(true);
    await eventually(() => subscriptionsPosted(services).length === 1, 'subscribed');
    fireEvent.click(toggle);
    await eventually(() => subscriptionsDeleted(services).length === 1, 'subscription deleted');
    expect(toggle.checked).to.equal(false);
  });
});
