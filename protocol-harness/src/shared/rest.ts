// The REST side of a client: log in with e-mail and password, keep the session cookie, and make
// authenticated JSON requests, as a browser tab would.
import { parse as parseCookie } from 'cookie';
import { api, type LoginResponse } from '@common/api';

export interface Session {
  /** The server's base URL, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** The Cookie header value this session sends. */
  cookie: string;
  userId: number;
  name: string;
}

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    body: string,
  ) {
    super(`${path} answered ${status}: ${body.slice(0, 200)}`);
  }
}

export function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The name=value pairs of every Set-Cookie header, as one Cookie header. */
function cookieHeader(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((line) => Object.entries(parseCookie(line.split(';')[0])))
    .flat()
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

export async function login(baseUrl: string, email: string, password: string): Promise<Session> {
  const base = normaliseBaseUrl(baseUrl);
  const res = await fetch(base + api.login, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new HttpStatusError(res.status, api.login, text);
  const body = JSON.parse(text) as LoginResponse;
  const cookie = cookieHeader(res);
  if (!cookie) throw new Error(`${api.login} set no session cookie`);
  return { baseUrl: base, cookie, userId: body.userId, name: body.name };
}

/** GET a JSON resource with the session's cookie. */
export async function getJson<T>(session: Pick<Session, 'baseUrl' | 'cookie'>, path: string): Promise<T> {
  const res = await fetch(session.baseUrl + path, { headers: { cookie: session.cookie } });
  const text = await res.text();
  if (res.status !== 200) throw new HttpStatusError(res.status, path, text);
  return JSON.parse(text) as T;
}
