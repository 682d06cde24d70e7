// '{name}님이 입력 중…' under the messages while others type; an empty line otherwise,
// so the layout does not jump.
import { useAppSelector } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import { selectTypingNames } from './liveSlice';

export function TypingLine() {
  const names = useAppSelector(selectTypingNames);
  return (
    <p className="typing-line" role="status" aria-live="polite" data-testid="typing-line">
      {names !== null ? ko.room.typing(names) : ''}
    </p>
  );
}
