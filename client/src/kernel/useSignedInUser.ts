// The signed-in user's id on a screen for signed-in users (every screen but login and sign-up),
// else null: what the app-wide listeners (calls, notifications) run for.
import { useLocation } from 'wouter';
import { createUidStore } from '../services/uid';
import { paths } from './paths';

const SIGNED_OUT_ROUTES: readonly string[] = [paths.login, paths.signUp];

export function useSignedInUser(): number | null {
  const [pathname] = useLocation();
  return SIGNED_OUT_ROUTES.includes(pathname) ? null : createUidStore(window.localStorage).read();
}
