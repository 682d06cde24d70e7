// An expected refusal: a status, a stable machine code, a human message, optional headers.
// The transport throws it for what it refuses itself (size, type, origin, login); domain
// refusals reach it through the REST edge (features/edges.ts).
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
