// Validation rules and limits from SPEC.md §5 and §9. Shared by client and server so both
// sides refuse exactly the same input.

export const LIMITS = {
  loginInput: 255,
  searchInput: 255,
  message: 3000,
  roomName: 50,
  email: 100,
  name: 100,
  verificationCode: 6,
  redirectDelayMs: 1000,
  historyPageSize: 20,
  searchResults: 50,
  notificationIntervalMs: 3 * 60 * 1000,
  verificationCodeTtlMs: 5 * 60 * 1000,
  relativeTimeCutoffDays: 14,
  candidateIntervalMs: 250,
  candidateRepeats: 60,
} as const;

// Starts with an English or Korean letter or one of - . ' and continues with letters,
// whitespace or - . ' (SPEC.md §5). Korean covers syllables and compatibility jamo.
const NAME_PATTERN = /^[A-Za-z\u3131-\u318E\uAC00-\uD7A3\-.'][A-Za-z\u3131-\u318E\uAC00-\uD7A3\s\-.']*$/;

export function isValidName(name: string): boolean {
  return name.length >= 1 && name.length <= LIMITS.name && NAME_PATTERN.test(name);
}

// Deliberately simple: one @, something on each side, a dot in the domain, no spaces or
// control characters. Deliverability is proven by the verification code, not by a regex.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"\u0000-\u001f]+@[^\s@<>()[\]\\,;:"\u0000-\u001f]+\.[^\s@<>()[\]\\,;:"\u0000-\u001f]+$/;

export function isValidEmail(email: string): boolean {
  return email.length <= LIMITS.email && EMAIL_PATTERN.test(email);
}

/**
 * A positive integer id as the wire carries it: a number, or a numeric string (query strings are
 * always strings, and older clients send ids as strings). Null when it is not one.
 */
export function toPositiveId(raw: unknown): number | null {
  const n = typeof raw === 'string' && /^[0-9]{1,16}$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A search keyword that is empty or only % after trimming sends no request (SPEC.md §5). */
export function isSearchableKeyword(keyword: string): boolean {
  const trimmed = keyword.trim();
  return trimmed.length > 0 && trimmed !== '%' && trimmed.length <= LIMITS.searchInput;
}

/** Non-blank and at most 3000 characters once trimmed: the trimmed text is what is stored. */
export function isSendableMessage(content: string): boolean {
  const trimmed = content.trim();
  return trimmed.length > 0 && trimmed.length <= LIMITS.message;
}

export function isValidRoomName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length > 0 && trimmed.length <= LIMITS.roomName;
}
