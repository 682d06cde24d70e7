// The REST calls the chat load needs: log in (the harness's shared client keeps the session
// cookie), create a room, invite into it.
import { api, type CreateRoomResponse } from '@common/api';
import { describeError } from '../shared/outcome';
import { HttpStatusError, login as sharedLogin } from '../shared/rest';

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

export class RestError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when the server answered at all. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

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

/** Logs in with the shared REST client; failures name the account, for the operator. */
export async function login(base: string, c: Credentials): Promise<LoggedInUser> {
  try {
    const session = await sharedLogin(base, c.email, c.password);
    return { email: c.email, userId: session.userId, name: session.name, cookie: session.cookie };
  } catch (err) {
    // An unreachable server says only "fetch failed"; its cause names the socket error.
    const detail = err instanceof HttpStatusError ? `HTTP ${err.status}` : describeError(err);
    throw new RestError(`login ${c.email}: ${detail}`, err instanceof HttpStatusError ? err.status : null);
  }
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
