// Range requests (RFC 9110 §14) for bodies of a known size: one byte range is answered with
// that part (206), a range wholly past the end is unsatisfiable (416), and everything else (no
// Range, another unit, a malformed or multi-part Range, an If-Range that does not match) gets
// the whole body (200), as the RFC allows a server to.

export type RangeAnswer =
  | { kind: 'whole' }
  /** Bytes `start` to `end`, both inclusive. */
  | { kind: 'part'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const WHOLE: RangeAnswer = { kind: 'whole' };
const UNSATISFIABLE: RangeAnswer = { kind: 'unsatisfiable' };

/**
 * What to answer a request with these Range and If-Range headers for a body of `size` bytes
 * whose strong validator is `etag` (none: an If-Range can never match, so the whole body).
 */
export function answerRange(range: string | undefined, ifRange: string | undefined, size: number, etag: string | undefined): RangeAnswer {
  if (range === undefined) return WHOLE;
  // If-Range: the part only if the client's copy is this very body (a strong ETag; we send no
  // Last-Modified, so a date never matches).
  if (ifRange !== undefined && (etag === undefined || ifRange.trim() !== etag)) return WHOLE;
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(range);
  if (!m) return WHOLE;
  const specs = m[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return WHOLE;
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return WHOLE;
  if (spec[1] === '') {
    // The last n bytes.
    const n = Number(spec[2]);
    if (n === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? Infinity : Number(spec[2]);
  if (end < start) return WHOLE; // not a valid range: ignored
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}
