import { Redirect } from 'wouter';
import { createUidStore } from '../services/uid';
import { paths } from '../kernel/paths';

/** `/`: to the chat list with a stored uid, otherwise to /login (docs/spec.md §2). */
export function EntryRedirect() {
  const uid = createUidStore(window.localStorage).read();
  return <Redirect to={uid === null ? paths.login : paths.chatList} replace />;
}
