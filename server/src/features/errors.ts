// The refusals services throw. They name what went wrong in the domain's terms; the edges
// (edges.ts) turn them into HTTP statuses and STOMP ERROR frames, so no service knows either.
// `code` is the stable machine code REST clients see beside the human message.

export abstract class DomainError extends Error {
  abstract readonly code: string;
}

/** The input breaks a rule (400). */
export class InvalidError extends DomainError {
  constructor(
    message: string,
    readonly code = 'bad_request',
  ) {
    super(message);
  }
}

/** Credentials or session do not prove who the caller is (401). */
export class UnauthenticatedError extends DomainError {
  constructor(
    message = 'login required',
    readonly code = 'unauthorized',
  ) {
    super(message);
  }
}

/** The spec answers a taken address at the verification step with 401 '이미 존재하는 이메일입니다'. */
export class EmailTakenError extends DomainError {
  readonly code = 'email_taken';
  constructor() {
    super('an account with this e-mail already exists');
  }
}

/** The caller may not do this (403). */
export class ForbiddenError extends DomainError {
  constructor(
    message = 'forbidden',
    readonly code = 'forbidden',
  ) {
    super(message);
  }
}

/** The chat rule behind most 403s: only members act on a room. */
export class NotAMemberError extends ForbiddenError {
  constructor() {
    super('not a member of this chat room');
  }
}

/** The thing asked for does not exist (404). */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(message = 'not found') {
    super(message);
  }
}

/** The request collides with what exists (409). */
export class ConflictError extends DomainError {
  constructor(
    message: string,
    readonly code = 'conflict',
  ) {
    super(message);
  }
}

/** The request would take more than the caller's quota allows (413). */
export class QuotaExceededError extends DomainError {
  readonly code = 'quota_exceeded';
  constructor(message: string) {
    super(message);
  }
}

/** Too many attempts; try again after retryAfterSeconds (429). */
export class RateLimitedError extends DomainError {
  readonly code = 'too_many_requests';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message = 'too many requests') {
    super(message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** A service we depend on (the mail server) refused or failed (502). */
export class UpstreamFailedError extends DomainError {
  constructor(
    message: string,
    readonly code = 'upstream_failed',
  ) {
    super(message);
  }
}

/** The feature is not configured on this server (503). */
export class NotConfiguredError extends DomainError {
  constructor(
    message: string,
    readonly code = 'not_configured',
  ) {
    super(message);
  }
}

/**
 * State shared between nodes (the cluster bus) could not be reached in time: not a refusal but
 * "try again in a moment", like a database out of reach (REST 503 with Retry-After, STOMP a
 * retryable ERROR). Not a DomainError: nothing about the request was wrong.
 */
export class SharedStateUnavailableError extends Error {
  readonly code = 'unavailable';
  constructor(cause?: unknown) {
    super('the cluster bus is unavailable; try again in a moment', { cause });
    this.name = 'SharedStateUnavailableError';
  }
}
