// An avatar with a small green dot while its user is online.
import type { ReactNode } from 'react';
import { ko } from '../i18n/ko';

export function WithPresence({ online, children }: { online: boolean | undefined; children: ReactNode }) {
  return (
    <span className="presence">
      {children}
      {online && <span className="presence__dot" role="img" aria-label={ko.room.online} data-testid="online-dot" />}
    </span>
  );
}
