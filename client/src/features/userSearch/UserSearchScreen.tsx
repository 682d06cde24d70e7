// The screen both people searches share (docs/spec.md §2 user search and invite): a back link and a
// title, the search box, then a hint until something is found, or the users found, each with
// what this screen lets you do with them. The pages import the stylesheet (chat.css), so this
// renders in the node tests too.
import type { ReactNode } from 'react';
import type { UserSummary } from '@common/api';
import { BackButton } from '../../components/BackButton';
import { useDocumentTitle } from '../../components/documentTitle';
import { ko } from '../../i18n/ko';
import { SearchIcon } from '../../components/icons';
import { SearchBar } from './SearchBar';
import { UserRow } from './UserRow';

export interface UserSearchScreenProps<U extends UserSummary> {
  back: { to: string; label: string };
  title: string;
  placeholder: string;
  searchLabel: string;
  searching: boolean;
  /** A search with a keyword ran: no results then reads '검색 결과가 없습니다' instead of the hint. */
  searched: boolean;
  onSearch(keyword: string): void;
  emptyHint: string;
  /** Said under the box while it holds one character (the server searches two or more). */
  minCharsHint?: string;
  results: readonly U[];
  /** Tapping a person's photo or name opens their profile card. */
  onOpen?: (user: U) => void;
  renderAction(user: U): ReactNode;
  /** A line under the search box that holds whatever is found (the invite's private past). */
  note?: string;
}

export function UserSearchScreen<U extends UserSummary>(props: UserSearchScreenProps<U>) {
  const { back, title, results, renderAction } = props;
  useDocumentTitle(title);
  return (
    <div className="screen-wrap">
      <main className="screen">
        <header className="screen__header">
          <BackButton to={back.to} label={back.label} />
          <h1 className="screen__title">{title}</h1>
        </header>
        <SearchBar placeholder={props.placeholder} buttonLabel={props.searchLabel} busy={props.searching} onSearch={props.onSearch} minCharsHint={props.minCharsHint} />
        {props.note && <p className="search-note" data-testid="search-note">{props.note}</p>}
        <div className="screen__body">
          {props.searching && results.length === 0 ? (
            <p className="loading-line" role="status" data-testid="search-loading">
              {ko.search.searching}
            </p>
          ) : results.length === 0 ? (
            <div className="empty-state" role="status">
              <span className="empty-state__icon"><SearchIcon /></span>
              <p>{props.searched ? ko.search.noResults : props.emptyHint}</p>
            </div>
          ) : (
            <ul className="user-rows" aria-busy={props.searching || undefined}>
              {results.map((user) => (
                <UserRow key={user.userId} user={user} onOpen={props.onOpen && (() => props.onOpen?.(user))}>
                  {renderAction(user)}
                </UserRow>
              ))}
            </ul>
          )}
        </div>
      </main>
    </div>
  );
}
