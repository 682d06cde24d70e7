// /friends, the home's 친구 tab (KakaoTalk's): my profile at the top (photo, name, status message),
// then 즐겨찾기 and 친구, by name, with who is online; the 친구 검색 box filters both as one types.
// Tapping a person opens their profile card (handed in by app/, which gives it the call buttons).
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { Friend } from '@common/api';
import { LIMITS } from '@common/rules';
import { Avatar } from '../../components/Avatar';
import { useDocumentTitle } from '../../components/documentTitle';
import { AddPersonIcon, SearchIcon } from '../../components/icons';
import { WithPresence } from '../../components/PresenceDot';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { ko } from '../../i18n/ko';
import { koPeople } from '../../i18n/koPeople';
import { friendSections, friendsActions, selectFriendsState, type ProfilePerson } from './friendsSlice';

const t = koPeople.friends;

export interface FriendsPageProps {
  /** The profile card of the person tapped (app/ gives it the call buttons). */
  renderCard(person: ProfilePerson, onClose: () => void): ReactNode;
}

export default function FriendsPage({ renderCard }: FriendsPageProps) {
  const dispatch = useAppDispatch();
  const { me, friends, failure } = useAppSelector(selectFriendsState);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<ProfilePerson | null>(null);
  useDocumentTitle(t.title);

  useEffect(() => {
    dispatch(friendsActions.friendsOpened());
  }, [dispatch]);

  const { favourites, others } = friendSections(friends ?? [], filter);
  const onClose = () => setOpen(null);

  return (
    <div className="screen-wrap">
      <main className="screen friends">
        <header className="screen__header">
          <h1 className="screen__title">{t.title}</h1>
          <Link className="icon-btn icon-btn--accent" to={paths.findUser} aria-label={t.findUser} title={t.findUser}>
            <AddPersonIcon />
          </Link>
        </header>
        <div className="screen__body">
          {me && (
            <section className="friends__me" aria-label={t.me}>
              <PersonButton person={me} size={56} onOpen={setOpen} />
            </section>
          )}
          <div className="friends__search" role="search">
            <label className="search-bar__field">
              <SearchIcon />
              <input
                className="field__input"
                type="search"
                aria-label={t.search}
                placeholder={t.search}
                maxLength={LIMITS.searchInput}
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
              />
            </label>
          </div>
          {failure === 'load' && friends === null && <p role="alert">{t.loadFailed}</p>}
          {friends === null ? (
            failure !== 'load' && <p className="loading-line">{ko.app.loading}</p>
          ) : friends.length === 0 ? (
            <div className="empty-state" role="status">
              <p className="empty-state__title">{t.empty}</p>
              <p>{t.emptyHint}</p>
            </div>
          ) : favourites.length + others.length === 0 ? (
            <p className="empty-state" role="status">
              {t.noMatch}
            </p>
          ) : (
            <>
              <FriendSection title={t.favourites} friends={favourites} onOpen={setOpen} />
              <FriendSection title={t.friends} friends={others} onOpen={setOpen} />
            </>
          )}
        </div>
      </main>
      {open && renderCard(open, onClose)}
    </div>
  );
}

function FriendSection({ title, friends, onOpen }: { title: string; friends: Friend[]; onOpen(person: ProfilePerson): void }) {
  if (friends.length === 0) return null;
  return (
    <section className="friends__section" aria-label={title}>
      <h2 className="friends__section-title">
        {title} <span className="friends__count">{friends.length}</span>
      </h2>
      <ul className="friends__list">
        {friends.map((friend) => (
          <li key={friend.userId} data-testid="friend-row">
            <PersonButton person={friend} online={friend.online} onOpen={onOpen} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A person as a row that opens their card: photo (with the online dot), name, status message. */
function PersonButton({ person, online, size = 44, onOpen }: { person: ProfilePerson; online?: boolean; size?: number; onOpen(person: ProfilePerson): void }) {
  return (
    // Named by what it shows (name, then status message); it opens the person's card.
    <button type="button" className="friend-row" aria-haspopup="dialog" onClick={() => onOpen(person)}>
      <WithPresence online={online}>
        <Avatar name={person.name} size={size} photo={{ userId: person.userId, photoVersion: person.photoVersion }} />
      </WithPresence>
      <span className="friend-row__text">
        <span className="friend-row__name">{person.name}</span>
        {person.statusMessage && <span className="friend-row__status">{person.statusMessage}</span>}
      </span>
    </button>
  );
}
