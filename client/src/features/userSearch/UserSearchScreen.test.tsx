import { expect } from 'chai';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../app/renderApp.test-support';
import type { UserSummary } from '@common/api';
import { UserSearchScreen } from './UserSearchScreen';

const KIM: UserSummary = { userId: 2, name: '김철수', email: 'kim@example.com' };

function renderScreen(results: UserSummary[], searched: string[] = [], state: { searching?: boolean; searched?: boolean } = {}) {
  return render(
    <MemoryRouter>
      <UserSearchScreen
        back={{ to: '/chat-list', label: '채팅 목록으로' }}
        title="사용자 검색"
        placeholder="이름 또는 이메일"
        searchLabel="검색"
        searching={state.searching ?? false}
        searched={state.searched ?? false}
        onSearch={(keyword) => searched.push(keyword)}
        emptyHint="검색할 사용자 이름을 입력해주세요."
        results={results}
        renderAction={(user) => <button type="button">{`${user.name} 선택`}</button>}
      />
    </MemoryRouter>,
  );
}

describe('the user search screen', () => {
  afterEach(cleanup);

  it('shows the hint and no rows until something is found, and a back link to where the page says', () => {
    renderScreen([]);
    expect(screen.getByText('검색할 사용자 이름을 입력해주세요.')).to.exist;
    expect(screen.queryAllByTestId('user-row')).to.have.length(0);
    expect(screen.getByRole('link', { name: '채팅 목록으로' }).getAttribute('href')).to.equal('/chat-list');
    expect(screen.getByRole('heading', { name: '사용자 검색' })).to.exist;
  });

  it('lists each user found with the action the page renders for them', () => {
    renderScreen([KIM]);
    const row = screen.getByTestId('user-row');
    expect(within(row).getByText(KIM.email)).to.exist;
    expect(within(row).getByRole('button', { name: '김철수 선택' })).to.exist;
    expect(screen.queryByText('검색할 사용자 이름을 입력해주세요.')).to.equal(null);
  });

  it('says it is searching while a search runs, and 검색 결과가 없습니다 when a search found nobody', () => {
    const { unmount } = renderScreen([], [], { searching: true, searched: true });
    expect(screen.getByTestId('search-loading').textContent).to.equal('검색 중...');
    unmount();
    renderScreen([], [], { searching: false, searched: true });
    expect(screen.getByText('검색 결과가 없습니다')).to.exist;
    expect(screen.queryByText('검색할 사용자 이름을 입력해주세요.')).to.equal(null);
  });

  it('submits the typed keyword from the search box, at most 255 characters', () => {
    const searched: string[] = [];
    renderScreen([], searched);
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    expect(box.maxLength).to.equal(255);
    fireEvent.change(box, { target: { value: '김' } });
    fireEvent.submit(box.form!);
    expect(searched).to.deep.equal(['김']);
  });

  it('says 두 글자 이상 입력하세요. while the box holds one character, and opens a person’s card from their photo and name', () => {
    const opened: string[] = [];
    render(
      <MemoryRouter>
        <UserSearchScreen
          back={{ to: '/chat-list', label: '채팅 목록으로' }}
          title="사용자 검색"
          placeholder="이름 또는 이메일"
          searchLabel="검색"
          searching={false}
          searched={false}
          onSearch={() => undefined}
          emptyHint="검색할 사용자 이름을 입력해주세요."
          minCharsHint="두 글자 이상 입력하세요."
          results={[{ ...KIM, photoVersion: 'p2' }]}
          onOpen={(user) => opened.push(user.name)}
          renderAction={() => null}
        />
      </MemoryRouter>,
    );
    const box = screen.getByRole('searchbox');
    expect(screen.queryByText('두 글자 이상 입력하세요.')).to.equal(null);
    fireEvent.change(box, { target: { value: '박' } });
    expect(screen.getByText('두 글자 이상 입력하세요.').id).to.equal(box.getAttribute('aria-describedby'));
    fireEvent.change(box, { target: { value: '박민' } });
    expect(screen.queryByText('두 글자 이상 입력하세요.')).to.equal(null);

    const row = screen.getByTestId('user-row');
    expect(row.querySelector('img')?.getAttribute('src')).to.equal('/api/users/2/photo?size=small&v=p2');
    fireEvent.click(within(row).getByRole('button', { name: '김철수 kim@example.com' }));
    expect(opened).to.deep.equal(['김철수']);
  });
});
