// /call (docs/spec.md §2): search for a person by name and call them. The search is the user search
// (features/userSearch, installed with this page); the overlays and the audio elements come from
// CallHost, which AppShell mounts above this page.
import { useEffect, useState, type FormEvent } from 'react';
import { Redirect } from 'wouter';
import type { UserSummary } from '@common/api';
import { LIMITS } from '@common/rules';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { BackButton } from '../../components/BackButton';
import { useDocumentTitle } from '../../components/documentTitle';
import { koCall } from '../../i18n/koCall';
import { createUidStore } from '../../services/uid';
import { selectUserSearch, userSearchOpened, userSearchSubmitted } from '../userSearch';
import { CallButtons } from './CallButtons';
import { callActions, selectIsCallActive } from './callSlice';
import { PhoneIcon } from './icons';
import './call.css';

const t = koCall;

export default function CallPage() {
  const uid = createUidStore(window.localStorage).read();
  if (uid === null) return <Redirect to={paths.login} replace />;
  return <CallScreen me={uid} />;
}

function CallScreen({ me }: { me: number }) {
  const dispatch = useAppDispatch();
  const { results } = useAppSelector(selectUserSearch);
  const callActive = useAppSelector(selectIsCallActive);
  const [keyword, setKeyword] = useState('');
  useDocumentTitle(t.title);

  useEffect(() => {
    // Each visit starts from the prompts, not from the last visit's results.
    dispatch(userSearchOpened());
  }, [dispatch]);

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    // docs/spec.md §8: a failed search here only empties the list; the user stays on the call screen.
    dispatch(userSearchSubmitted(keyword, { leaveOnFailure: false }));
  };

  return (
    <main className="call-page">
      <header className="screen__header call-page__bar">
        <BackButton to={paths.chatList} label={t.back} disabled={callActive} />
        <h1 className="screen__title">{t.title}</h1>
      </header>
      <form className="call-search" onSubmit={onSearch} role="search">
        <input
          className="call-search__input"
          type="search"
          name="keyword"
          value={keyword}
          maxLength={LIMITS.searchInput}
          placeholder={t.searchPlaceholder}
          aria-label={t.searchPlaceholder}
          onChange={(e) => setKeyword(e.target.value)}
        />
        <button type="submit" className="btn btn--primary">
          {t.search}
        </button>
      </form>
      {results.length > 0 ? (
        <ul className="call-results">
          {results.map((user) => (
            <CallResult key={user.userId} user={user} isMe={user.userId === me} disabled={callActive} />
          ))}
        </ul>
      ) : (
        <div className="call-empty">
          <div className="call-empty__icon" aria-hidden="true">
            <PhoneIcon size={30} />
          </div>
          <p className="call-empty__lead">{t.promptPlace}</p>
          <p className="call-empty__hint">{t.promptSearch}</p>
        </div>
      )}
    </main>
  );
}

function CallResult({ user, isMe, disabled }: { user: UserSummary; isMe: boolean; disabled: boolean }) {
  const dispatch = useAppDispatch();
  return (
    <li className="call-result" data-testid="call-result">
      <div className="call-result__who">
        <span className="call-result__name">{user.name}</span>
        <span className="call-result__email">{user.email}</span>
      </div>
      {isMe ? (
        <span className="call-result__me">{t.yourself}</span>
      ) : (
        <>
        <CallButtons peer={{ userId: user.userId, name: user.name }} />
        <button
          type="button"
          className="call-result__call"
          aria-label={t.callUser(user.name)}
          disabled={disabled}
          onClick={() => dispatch(callActions.callRequested({ userId: user.userId, name: user.name }))}
        >
          <PhoneIcon />
        </button>
        </>
      )}
    </li>
  );
}
