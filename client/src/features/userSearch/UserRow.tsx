// A user found by a search: photo (or initial), name and e-mail, and what can be done with them.
import type { ReactNode } from 'react';
import type { UserSummary } from '@common/api';
import { Avatar } from '../../components/Avatar';
import { WithPresence } from '../../components/PresenceDot';

export function UserRow({ user, onOpen, children }: { user: UserSummary; onOpen?: () => void; children: ReactNode }) {
  const who = (
    <>
      <WithPresence online={user.online}>
        <Avatar name={user.name} size={42} photo={{ userId: user.userId, photoVersion: user.photoVersion }} />
      </WithPresence>
      <span className="user-row__text">
        <span className="user-row__name">{user.name}</span>
        <span className="user-row__email">{user.email}</span>
      </span>
    </>
  );
  return (
    <li className="user-row" data-testid="user-row">
      {onOpen ? (
        // The photo and name open the person's profile card; the actions stay beside them.
        <button type="button" className="user-row__who" aria-haspopup="dialog" onClick={onOpen}>
          {who}
        </button>
      ) : (
        who
      )}
      {children}
    </li>
  );
}
