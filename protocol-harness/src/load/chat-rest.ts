// The REST calls the chat load needs, made like the web client makes them: log in (keeping the
// session cookie), create a room, invite into it.
import { api, type CreateRoomResponse, type LoginResponse } from '../../../common/api';

export interface Credentials {
  email: string;
  password: string;
}

export interface LoggedInUser {
  email: string;
  userId: number;
  name: string;
  /** The Cookie header to send (REST and the WebSocket upgrade). */
  cookie: string;
}

export class RestError extends Error {}

async function call(base: string, method: string, path: string, cookie: string | null, json?: unknown): Promise<Response> {
  // No Origin header: like any non-browser client (the server refuses foreign origins, and the
  // URL we are given need not be the server's public one).
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (json !== undefined) headers['content-type'] = 'application/json';
  return fetch(base + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json), redirect: 'manual' });
}

async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new RestError(`${what}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

export async function login(base: string, c: Credentials): Promise<LoggedInUser> {
  const res = await call(base, 'POST', api.login, null, { email: c.email, password: c.password });
  const body = (await expectOk(res, `login ${c.email}`)) as LoginResponse;
  const cookie = res.headers
    .getSetCookie()
    .map((h) => h.split(';')[0].trim())
    .filter((pair) => pair.includes('=') && !pair.endsWith('='))
    .join('; ');
  if (!cookie) throw new RestError(`login ${c.email}: no session cookie in the response`);
  return { email: c.email, userId: body.userId, name: body.name, cookie };
}

export async function createRoom(base: string, owner: LoggedInUser, target: LoggedInUser): Promise<number> {
  const res = await call(base, 'POST', api.roomCreate, owner.cookie, { targetUserId: target.userId, targetUserName: target.name });
  const body = (await expectOk(res, `create room ${owner.email} → ${target.email}`)) as CreateRoomResponse;
  return body.chatRoomId;
}

export async function addUser(base: string, inviter: LoggedInUser, chatRoomId: number, user: LoggedInUser): Promise<void> {
  const res = await call(base, 'POST', api.addUser, inviter.cookie, { chatRoomId, userId: user.userId });
  await expectOk(res, `add ${user.email} to room ${chatRoomId}`);
}

/** Runs `task` over `items`, at most `concurrency` at a time, keeping the order of results. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
