// The members an '@' in the composer offers (issue 26): a listbox named '멘션할 사람' above the
// box. The composer keeps the keyboard (arrows move, Enter or Tab picks, Escape closes) and says
// which option is active; a click picks too. Its own chunk: fetched the first time '@' is typed.
import { koRooms } from '../../i18n/koRooms';
import type { Member } from './mentions';

export interface MentionPickerProps {
  id: string;
  candidates: readonly Member[];
  active: number;
  onPick(member: Member): void;
}

export const mentionOptionId = (listId: string, index: number) => `${listId}-${index}`;

export default function MentionPicker({ id, candidates, active, onPick }: MentionPickerProps) {
  return (
    <ul id={id} className="mention-picker" role="listbox" aria-label={koRooms.mention.picker}>
      {candidates.map((member, i) => (
        <li
          key={member.userId}
          id={mentionOptionId(id, i)}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'mention-picker__option mention-picker__option--active' : 'mention-picker__option'}
          // Keep the focus in the composer: a mousedown would move it away before the pick.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(member)}
        >
          {member.name}
        </li>
      ))}
    </ul>
  );
}
