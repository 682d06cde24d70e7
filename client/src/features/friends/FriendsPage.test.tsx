import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'chai';
import { api, type BlockedUser, type Friend } from '@common/api';
import { createFakeServices, eventually, type FakeServices } from '../../app/fakeServices';
import { renderApp } from '../../app/renderApp.test-support';
import FriendsPage from './FriendsPage';
import ProfileCard from './ProfileCard';

const ME = { userId: 1, name: '홍길동', photoVersion: 'v1', statusMessage: '오늘도 좋은 하루' };
const friend = (userId: number, name: string, over: Partial<Friend> = {}): Friend => ({ userId, name, photoVersion: null, statusMessage: null, favourite: false, online: false, ...over });

/** A server of friends and blocks kept in memory, answering as docs/protocol.md says (each change: the list). */
function peopleServer(friends: Friend[], blocks: BlockedUser[] = []): FakeServices {
  let list = [...friends];
  let blocked = [...blocks];
  const idOf = (path: string) => Number(path.split('/').pop());
  const services = createFakeServices(
    {
      [`GET ${api.userProfile}`]: () => ME,
      [`GET ${api.friends}`]: () => list,
      [`GET ${api.blocks}`]: () => blocked,
      [`POST ${api.roomCreate}`]: () => ({ chatRoomId: 42 }),
    },
    1,
  );
  for (const person of [friend(2, '김철수'), friend(3, '이영희'), friend(4, '박민수')]) {
    services.route(`PUT ${api.friend(person.userId)}`, (request) => {
      const existing = list.find((f) => f.userId === person.userId);
      const favourite = (request.body as { favourite?: boolean }).favourite;
      list = existing ? list.map((f) => (f === existing ? { ...f, favourite: favourite ?? f.favourite } : f)) : [...list, { ...person, favourite: favourite ?? false }];
      return list;
    });
    services.route(`DELETE ${api.friend(person.userId)}`, (request) => {
      list = list.filter((f) => f.userId !== idOf(request.path));
      return list;
    });
    services.route(`PUT ${api.block(person.userId)}`, () => {
      blocked = [...blocked, { userId: person.userId, name: person.name, photoVersion: null }];
      list = list.filter((f) => f.userId !== person.userId);
      return blocked;
    });
    services.route(`DELETE ${api.block(person.userId)}`, () => {
      blocked = blocked.filter((b) => b.userId !== person.userId);
      return blocked;
    });
  }
  return services;
}

function renderFriends(services: FakeServices) {
  return renderApp(
    services,
    [
      { path: '/friends', element: <FriendsPage renderCard={(person, onClose) => <ProfileCard person={person} onClose={onClose} />} /> },
      { path: '/chat-room', element: <p>room</p> },
    ],
    '/friends',
  );
}

const requested = (services: FakeServices, method: string, path: string) => services.requests.filter((r) => r.method === method && r.path === path);
/** A row as read: the name, and the status message after it when there is one. */
const names = (row: HTMLElement) => [...row.querySelectorAll('.friend-row__name, .friend-row__status')].map((el) => el.textContent).join(' ');
const rows = () => screen.queryAllByTestId('friend-row');

describe('the friends tab', () => {
  afterEach(cleanup);

  it('shows my profile, then 즐겨찾기 and 친구 by name with who is online, and 친구 검색 filters them', async () => {
    const services = peopleServer([friend(3, '이영희', { online: true, statusMessage: '회의 중' }), friend(2, '김철수', { favourite: true }), friend(4, '박민수')]);
    renderFriends(services);
    await eventually(() => rows().length === 3, 'the friends');
    const me = screen.getByRole('region', { name: '내 프로필' });
    expect(within(me).getByText(ME.name)).to.not.equal(null);
    expect(within(me).getByText(ME.statusMessage)).to.not.equal(null);
    expect(me.querySelector('img')?.getAttribute('src')).to.equal(`${api.photoOf(1)}?size=small&v=v1`);

    const favourites = screen.getByRole('region', { name: '즐겨찾기' });
    expect(within(favourites).getAllByTestId('friend-row').map(names)).to.deep.equal(['김철수']);
    const others = screen.getByRole('region', { name: '친구' });
    expect(within(others).getAllByTestId('friend-row').map(names)).to.deep.equal(['박민수', '이영희 회의 중']);
    expect(within(others).getAllByTestId('online-dot')).to.have.length(1);

    fireEvent.change(screen.getByRole('searchbox', { name: '친구 검색' }), { target: { value: '영' } });
    expect(rows().map(names)).to.deep.equal(['이영희 회의 중']);
    expect(screen.queryByRole('region', { name: '즐겨찾기' })).to.equal(null);
    fireEvent.change(screen.getByRole('searchbox', { name: '친구 검색' }), { target: { value: '없는사람' } });
    expect(rows()).to.have.length(0);
    expect(screen.getByText('검색 결과가 없습니다')).to.not.equal(null);
  });

  it('says 아직 친구가 없습니다. when there are none', async () => {
    renderFriends(peopleServer([]));
    await screen.findByText('아직 친구가 없습니다.');
    expect(rows()).to.have.length(0);
  });

  it('opens a friend’s profile card, makes them a favourite, then removes them', async () => {
    const services = peopleServer([friend(2, '김철수', { statusMessage: '바쁨' })]);
    renderFriends(services);
    await eventually(() => rows().length === 1, 'the friend');
    fireEvent.click(screen.getByRole('button', { name: /^김철수/ }));
    const card = await screen.findByRole('dialog', { name: '김철수' });
    expect(within(card).getByText('바쁨')).to.not.equal(null);
    expect(within(card).getByRole('button', { name: '1:1 채팅' })).to.not.equal(null);
    await eventually(() => !within(card).getByRole('button', { name: '즐겨찾기' }).hasAttribute('disabled'), 'the lists loaded');
    expect(within(card).getByRole('button', { name: '즐겨찾기' }).getAttribute('aria-pressed')).to.equal('false');

    fireEvent.click(within(card).getByRole('button', { name: '즐겨찾기' }));
    await eventually(() => within(card).getByRole('button', { name: '즐겨찾기' }).getAttribute('aria-pressed') === 'true', 'a favourite');
    expect(requested(services, 'PUT', api.friend(2))[0].body).to.deep.equal({ favourite: true });
    expect(within(screen.getByRole('region', { name: '즐겨찾기' })).getAllByTestId('friend-row')).to.have.length(1);

    fireEvent.click(within(card).getByRole('button', { name: '친구 삭제' }));
    await eventually(() => within(card).queryByRole('button', { name: '친구 추가' }) !== null, 'no longer a friend');
    expect(requested(services, 'DELETE', api.friend(2))).to.have.length(1);
    expect(within(card).queryByRole('button', { name: '즐겨찾기' })).to.equal(null);
    fireEvent.keyDown(document, { key: 'Escape' });
    await eventually(() => screen.queryByRole('dialog') === null, 'the card closed');
    expect(screen.getByText('아직 친구가 없습니다.')).to.not.equal(null);
  });

  it('blocks after asking (which also ends the friendship), and unblocks', async () => {
    const services = peopleServer([friend(2, '김철수')]);
    const { dialogs } = renderFriends(services);
    await eventually(() => rows().length === 1, 'the friend');
    fireEvent.click(screen.getByRole('button', { name: /^김철수/ }));
    const card = await screen.findByRole('dialog', { name: '김철수' });
    await eventually(() => !within(card).getByRole('button', { name: '차단' }).hasAttribute('disabled'), 'the lists loaded');
    fireEvent.click(within(card).getByRole('button', { name: '차단' }));
    await eventually(() => dialogs.current() !== null, 'the question');
    expect(dialogs.current()?.message).to.contain('김철수님을 차단할까요?');
    dialogs.answer(dialogs.current()!.id, true);
    await eventually(() => within(card).queryByRole('button', { name: '차단 해제' }) !== null, 'blocked');
    expect(requested(services, 'PUT', api.block(2))).to.have.length(1);
    expect(within(card).getByRole('button', { name: '1:1 채팅' }).hasAttribute('disabled')).to.equal(true);
    expect(within(card).getByRole('button', { name: '친구 추가' }).hasAttribute('disabled')).to.equal(true);
    await eventually(() => rows().length === 0, 'no longer among the friends');

    fireEvent.click(within(card).getByRole('button', { name: '차단 해제' }));
    await eventually(() => within(card).queryByRole('button', { name: '차단' }) !== null, 'unblocked');
    expect(requested(services, 'DELETE', api.block(2))).to.have.length(1);
  });

  it('opens the two people’s room with 1:1 채팅, as the user search does', async () => {
    const services = peopleServer([friend(2, '김철수')]);
    renderFriends(services);
    await eventually(() => rows().length === 1, 'the friend');
    fireEvent.click(screen.getByRole('button', { name: /^김철수/ }));
    const card = await screen.findByRole('dialog', { name: '김철수' });
    fireEvent.click(within(card).getByRole('button', { name: '1:1 채팅' }));
    await eventually(() => services.navigations.length > 0, 'the room opened');
    expect(requested(services, 'POST', api.roomCreate)[0].body).to.deep.equal({ targetUserId: 2, targetUserName: '김철수' });
    expect(services.navigations.at(-1)?.to).to.equal('/chat-room?cri=42');
  });

  it('says so when the friends cannot be loaded', async () => {
    const services = createFakeServices({ [`GET ${api.userProfile}`]: () => ME, [`GET ${api.friends}`]: () => Promise.reject(new Error('down')) }, 1);
    renderFriends(services);
    await screen.findByText('친구 목록을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
    expect(services.errors.map((e) => e.context)).to.include('friends');
  });
});
