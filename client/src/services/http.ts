// A small fetch wrapper: JSON in and out, same-origin cookies, and typed failures so callers
// can map an HTTP status (401, 429, 400 …) to the message docs/spec.md §8 asks for.
import type { ErrorResponse } from '@common/api';

export type Query = Record<string, string | number | boolean | undefined>;

/** The server answered, but not with 2xx. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse | null,
    /** Seconds from a Retry-After header, when the server sent one (429). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`HTTP ${status}${body?.message ? `: ${body.message}` : ''}`);
    this.name = 'HttpError';
  }
}

/** The request never got an answer (offline, connection refused, aborted). */
export class NetworkError extends Error {
  constructor(readonly cause: unknown) {
    super(`network error: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'NetworkError';
  }
}

export function isHttpStatus(error: unknown, status: number): boolean {
  return error instanceof HttpError && error.status === status;
}

export interface HttpClient {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body?: unknown): Promise<T>;
  /** Ours: PUT (friends, blocks), with a JSON body or none. */
  put<T>(path: string, body?: unknown): Promise<T>;
  /** A JSON body too where the API takes one (DELETE /api/push/subscriptions {endpoint}). */
  delete<T>(path: string, query?: Query, body?: unknown): Promise<T>;
}

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function asErrorResponse(body: unknown): ErrorResponse | null {
  if (body && typeof body === 'object' && 'message' in body) return body as ErrorResponse;
  return null;
}

export function createHttpClient(fetchImpl: typeof fetch = (...args) => fetch(...args), baseUrl = ''): HttpClient {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers = { ...init.headers, 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await fetchImpl(baseUrl + path, init);
    } catch (cause) {
      throw new NetworkError(cause);
    }
    const payload = await readJson(response);
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('Retry-After'));
      throw new HttpError(response.status, asErrorResponse(payload), Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
    }
    return payload as T;
  }

  return {
    get: (path, query) => request('GET', withQuery(path, query)),
    post: (path, body) => request('POST', path, body),
    patch: (path, body) => request('PATCH', path, body),
    put: (path, body) => request('PUT', path, body),
    delete: (path, query, body) => request('DELETE', withQuery(path, query), body),
  };
}
