import { Navigate } from 'react-router-dom';
import { createUidStore } from '../services/uid';
import { paths } from '../kernel/paths';

/** `/`: to the chat list with a stored uid, otherwise to /login (docs/spec.md §2). */
export function EntryRedirect() {
  const uid = createUidStore(window.localStorage).read();
  return <Navigate to={uid === null ? paths.login : paths.chatList} replace />;
}
