// Conditional GET (RFC 9110 §13.1.2): a client that already holds the representation names its
// ETag in If-None-Match and gets 304 Not Modified, without the body, instead of the bytes again.

/** Whether If-None-Match names this ETag (weak comparison: W/ is ignored on both sides) or is `*`. */
export function noneMatch(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (ifNoneMatch === undefined || etag === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const mine = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === mine);
}
