// The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https.
import { SESSION_COOKIE, cookie } from '../../transport/cookies';
import { SESSION_IDLE_MS } from './sessions';

export function sessionCookie(token: string, secure: boolean): string {
  // The browser keeps it as long as the server would; the server enforces the idle limit.
  return cookie(SESSION_COOKIE, token, { secure, maxAge: SESSION_IDLE_MS / 1000 });
}

export function clearedSessionCookie(secure: boolean): string {
  return cookie(SESSION_COOKIE, '', { secure, maxAge: 0 });
}
