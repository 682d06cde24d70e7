// A user found by a search: initial, name and e-mail, and what can be done with them.
import type { ReactNode } from 'react';
import type { UserSummary } from '@common/api';
import { Avatar } from '../../components/Avatar';
import { WithPresence } from '../../components/PresenceDot';

export function UserRow({ user, children }: { user: UserSummary; children: ReactNode }) {
  return (
    <li className="user-row" data-testid="user-row">
      <WithPresence online={user.online}>
        <Avatar name={user.name} size={42} />
      </WithPresence>
      <span className="user-row__text">
        <span className="user-row__name">{user.name}</span>
        <span className="user-row__email">{user.email}</span>
      </span>
      {children}
    </li>
  );
}
