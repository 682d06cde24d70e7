// '{name}님이 입력 중…' under the messages while others type (issue 11); an empty line otherwise,
// so the layout does not jump.
import { useAppSelector } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import { selectTypers } from './liveSlice';

export function TypingLine() {
  const typers = useAppSelector(selectTypers);
  return (
    <p className="typing-line" role="status" aria-live="polite" data-testid="typing-line">
      {typers.length > 0 ? ko.room.typing(typers.map((t) => t.name).join(', ')) : ''}
    </p>
  );
}
