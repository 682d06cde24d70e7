import { expect } from 'chai';
import sinon from 'sinon';
import { api } from '@common/api';
import { eventually, FakeHttp, refuse, settle } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { SEARCH_FAILURE_EXIT_MS } from './userSearchSaga';
import { startChatRequested, userSearchSubmitted } from './userSearchSlice';

const KIM = { userId: 2, name: '김철수', email: 'kim@example.com' };

describe('the user search saga', () => {
  let h: ReturnType<typeof createChatTestStore>;
  afterEach(() => {
    h?.stop();
    sinon.restore();
  });

  it('sends no request for an empty or %-only keyword and shows no results', async () => {
    h = createChatTestStore(new FakeHttp({ [`GET ${api.userSearch}`]: () => [KIM] }));
    for (const keyword of ['', '   ', '%', ' % ']) h.store.dispatch(userSearchSubmitted(keyword));
    await settle();
    expect(h.http.requests).to.deep.equal([]);
    expect(h.store.getState().userSearch.results).to.deep.equal([]);
  });

  it('searches the trimmed keyword and lists the users found', async () => {
    h = createChatTestStore(new FakeHttp({ [`GET ${api.userSearch}`]: () => [KIM] }));
    h.store.dispatch(userSearchSubmitted('  김  '));
    await eventually(() => h.store.getState().userSearch.results.length === 1, 'results');
    expect(h.http.requests[0].query).to.deep.equal({ keyword: '김' });
  });

  it('clears the results on a failed search and returns to the chat list 2 s later', async () => {
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout'] });
    h = createChatTestStore(new FakeHttp({ [`GET ${api.userSearch}`]: () => refuse(500) }));
    h.store.dispatch(userSearchSubmitted('김'));
    await clock.tickAsync(SEARCH_FAILURE_EXIT_MS - 1);
    expect(h.store.getState().userSearch.results).to.deep.equal([]);
    expect(h.navigations).to.deep.equal([]);
    await clock.tickAsync(1);
    expect(h.navigations.map((n) => n.to)).to.deep.equal(['/chat-list']);
  });

  it('creates a room with the chosen user and opens it', async () => {
    h = createChatTestStore(new FakeHttp({ [`POST ${api.roomCreate}`]: () => ({ chatRoomId: 12 }) }));
    h.store.dispatch(startChatRequested(KIM));
    await eventually(() => h.navigations.length === 1, 'navigated');
    expect(h.http.requests[0].body).to.deep.equal({ targetUserId: KIM.userId, targetUserName: KIM.name });
    expect(h.navigations[0].to).to.equal('/chat-room?cri=12');
  });

  it('alerts "Error starting chat." when the room cannot be created', async () => {
    h = createChatTestStore(new FakeHttp({ [`POST ${api.roomCreate}`]: () => refuse(400) }));
    h.store.dispatch(startChatRequested(KIM));
    await eventually(() => h.alerts.length === 1, 'alerted');
    expect(h.alerts).to.deep.equal(['Error starting chat.']);
    expect(h.navigations).to.deep.equal([]);
    expect(h.store.getState().userSearch.startingWith).to.equal(null);
  });
});

// The call screen (/call) searches through the same saga; a failure there keeps the user on it (docs/spec.md §8).
describe('the user search on the call screen', () => {
  let h: ReturnType<typeof createChatTestStore>;
  afterEach(() => {
    h?.stop();
    sinon.restore();
  });

  it('sends no request for a blank or %-only keyword', async () => {
    h = createChatTestStore(new FakeHttp({ [`GET ${api.userSearch}`]: () => [KIM] }));
    h.store.dispatch(userSearchSubmitted(' % ', { leaveOnFailure: false }));
    await settle();
    expect(h.store.getState().userSearch.results).to.deep.equal([]);
    expect(h.http.requests).to.deep.equal([]);
  });

  it('lists the users the server finds for the trimmed keyword', async () => {
    const queries: unknown[] = [];
    h = createChatTestStore(new FakeHttp({ [`GET ${api.userSearch}`]: (r) => (queries.push(r.query), [KIM]) }));
    h.store.dispatch(userSearchSubmitted(' Kim ', { leaveOnFailure: false }));
    await eventually(() => h.store.getState().userSearch.results.length === 1, 'results');
    expect(h.store.getState().userSearch.results).to.deep.equal([KIM]);
    expect(queries).to.deep.equal([{ keyword: 'Kim' }]);
  });

  it('logs a failed search and shows an empty list, without leaving the screen', async () => {
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout'] });
    h = createChatTestStore(new FakeHttp({ [`GET ${api.userSearch}`]: () => refuse(500) }));
    h.store.dispatch(userSearchSubmitted('Kim', { leaveOnFailure: false }));
    await clock.tickAsync(SEARCH_FAILURE_EXIT_MS + 1);
    expect(h.store.getState().userSearch.results).to.deep.equal([]);
    expect(h.errors.some((e) => e.startsWith('user search'))).to.equal(true);
    expect(h.navigations).to.deep.equal([]);
  });
});
