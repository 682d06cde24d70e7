import { Navigate } from 'react-router-dom';
import { createUidStore } from '../features/auth/uid';
import { paths } from './paths';

/** `/`: to the chat list with a stored uid, otherwise to /login (SPEC.md §2). */
export function EntryRedirect() {
  const uid = createUidStore(window.localStorage).read();
  return <Navigate to={uid === null ? paths.login : paths.chatList} replace />;
}
