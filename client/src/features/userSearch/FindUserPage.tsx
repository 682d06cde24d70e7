// /find-user (SPEC.md §2 user search): find someone by name or e-mail and start a chat.
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { Button } from '../../components/Button';
import { ko } from '../../i18n/ko';
import { createUidStore } from '../auth/uid';
import { BackIcon, SearchIcon } from '../room/icons';
import '../room/chat.css';
import { SearchBar } from './SearchBar';
import { UserRow } from './UserRow';
import { selectUserSearch, startChatRequested, userSearchOpened, userSearchSubmitted } from './userSearchSlice';

export default function FindUserPage() {
  const dispatch = useAppDispatch();
  const { results, searching, startingWith } = useAppSelector(selectUserSearch);
  const myId = createUidStore(window.localStorage).read();

  useEffect(() => {
    dispatch(userSearchOpened());
  }, [dispatch]);

  return (
    <div className="screen-wrap">
      <main className="screen">
        <header className="screen__header">
          <Link className="icon-btn" to={paths.chatList} aria-label={ko.userSearch.back} title={ko.userSearch.back}>
            <BackIcon />
          </Link>
          <h1 className="screen__title">{ko.userSearch.title}</h1>
        </header>
        <SearchBar
          placeholder={ko.userSearch.placeholder}
          buttonLabel={ko.userSearch.search}
          busy={searching}
          onSearch={(keyword) => dispatch(userSearchSubmitted(keyword))}
        />
        <div className="screen__body">
          {results.length === 0 ? (
            <div className="empty-state">
              <span className="empty-state__icon"><SearchIcon /></span>
              <p>{ko.userSearch.emptyHint}</p>
            </div>
          ) : (
            <ul className="user-rows">
              {results.map((user) => (
                <UserRow key={user.userId} user={user}>
                  {user.userId === myId ? (
                    <span className="user-row__self">{ko.userSearch.self}</span>
                  ) : (
                    <Button
                      variant="secondary"
                      className="user-row__action"
                      busy={startingWith === user.userId}
                      disabled={startingWith !== null}
                      onClick={() => dispatch(startChatRequested(user))}
                    >
                      {ko.userSearch.startChat}
                    </Button>
                  )}
                </UserRow>
              ))}
            </ul>
          )}
        </div>
      </main>
    </div>
  );
}
