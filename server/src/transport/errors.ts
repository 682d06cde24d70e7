// An expected refusal: a status, a stable machine code, a human message, optional headers.
// Routes and services throw it; the HTTP transport turns it into the response.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
export const unauthorized = (message = 'login required') => new HttpError(401, 'unauthorized', message);
export const forbidden = (message = 'forbidden') => new HttpError(403, 'forbidden', message);
export const notFound = (message = 'not found') => new HttpError(404, 'not_found', message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'too many requests') =>
  new HttpError(429, 'too_many_requests', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
