// The search box of the search screens: max 255 characters, Enter or the button submits.
import { useId, useState, type FormEvent } from 'react';
import { LIMITS } from '@common/rules';
import { Button } from '../../components/Button';
import { SearchIcon } from '../../components/icons';

export interface SearchBarProps {
  placeholder: string;
  buttonLabel: string;
  busy?: boolean;
  onSearch(keyword: string): void;
  /** Said while the box holds a single character: the search needs two or more. */
  minCharsHint?: string;
}

export function SearchBar({ placeholder, buttonLabel, busy, onSearch, minCharsHint }: SearchBarProps) {
  const [keyword, setKeyword] = useState('');
  const hintId = useId();
  const tooShort = minCharsHint !== undefined && [...keyword.trim()].length === 1;
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
          aria-describedby={minCharsHint ? hintId : undefined}
          autoFocus
        />
      </label>
      <Button type="submit" busy={busy}>
        {buttonLabel}
      </Button>
      {minCharsHint !== undefined && (
        <p id={hintId} className="search-bar__hint" role="status">
          {tooShort ? minCharsHint : ''}
        </p>
      )}
    </form>
  );
}
