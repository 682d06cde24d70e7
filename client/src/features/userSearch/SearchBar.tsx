// The search box of the search screens: max 255 characters, Enter or the button submits.
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@common/rules';
import { Button } from '../../components/Button';
import { SearchIcon } from '../../components/icons';

export interface SearchBarProps {
  placeholder: string;
  buttonLabel: string;
  busy?: boolean;
  onSearch(keyword: string): void;
}

export function SearchBar({ placeholder, buttonLabel, busy, onSearch }: SearchBarProps) {
  const [keyword, setKeyword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(keyword);
  };
  return (
    <form className="search-bar" role="search" onSubmit={submit}>
      <label className="search-bar__field">
        <SearchIcon />
        <input
          className="field__input"
          type="search"
          name="keyword"
          aria-label={placeholder}
          placeholder={placeholder}
          maxLength={LIMITS.searchInput}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          autoFocus
        />
      </label>
      <Button type="submit" busy={busy}>
        {buttonLabel}
      </Button>
    </form>
  );
}
