// Cookies: the request's, parsed once, and the Set-Cookie headers routes answer with.
import { parse as parseCookies, serialize as serializeCookie, type SerializeOptions } from 'cookie';

/** The login session's cookie, read at every HTTP request and at the WebSocket upgrade. */
export const SESSION_COOKIE = 'sid';

/** A request's cookies by name; a missing Cookie header is no cookie. */
export function requestCookies(header: string | undefined): Record<string, string | undefined> {
  return parseCookies(header ?? '');
}

/** HttpOnly, SameSite=Lax and Path=/ unless the caller says otherwise. */
export function cookie(name: string, value: string, options: SerializeOptions & { secure: boolean }): string {
  return serializeCookie(name, value, { httpOnly: true, sameSite: 'lax', path: '/', ...options });
}
