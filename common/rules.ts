// Validation rules and limits from docs/spec.md §5 and §9. Shared by client and server so both
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
  /** History after a seq (catching up) answers at most this many. */
  catchUpPageSize: 100,
  /** A member's read events on the room-events topic: at most one per this interval. */
  readEventIntervalMs: 1000,
  /** A member's typing events: at most one per this interval; clients show one this long. */
  typingIntervalMs: 2000,
  typingShownMs: 5000,
  searchResults: 50,
  notificationIntervalMs: 3 * 60 * 1000,
  verificationCodeTtlMs: 5 * 60 * 1000,
  relativeTimeCutoffDays: 14,
  candidateIntervalMs: 250,
  candidateRepeats: 60,
  /** A user may delete their message for everyone this long after sending it. */
  deleteForEveryoneMs: 24 * 60 * 60 * 1000,
  /** A reply's quote of the original carries at most this many characters of it. */
  replyQuote: 100,
  /** History by changedSince answers at most this many changed messages. */
  changesPageSize: 100,
  /** An attachment's size at most (25 MiB); the upload is refused with 413 past it. */
  attachmentBytes: 25 * 1024 * 1024,
  /** Message search answers this many a page. */
  messageSearchPageSize: 20,
  /** A status message at most this many characters once trimmed. */
  statusMessage: 60,
  /** A profile photo's upload at most (10 MiB); refused with 413 past it. */
  photoBytes: 10 * 1024 * 1024,
  /** A message keeps at most this many mentioned members (the first ones given). */
  mentionsPerMessage: 50,
  /** Ours: a message sends at most this many photos at once (attachmentIds). */
  photosPerMessage: 30,
  /** Ours (issue 27): the chat rooms one /app/forward-message may forward a message to. */
  forwardRooms: 10,
} as const;

/** The six quick reactions the reaction bar shows first; any other single emoji may be given too. */
export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;
/** A reaction: exactly one emoji (isReaction). */
export type Reaction = string;

/** A reaction's emoji holds at most this many code points (the longest RGI emoji has 10; the column holds 16). */
const REACTION_CODE_POINTS = 16;
/**
 * Unicode's recommended emoji (RGI: flags, keycaps, ZWJ sequences, skin tones), whole string.
 * The 'v' flag needs ES2024 syntax, and older browsers (Safari 16, Firefox before 116) have
 * neither it nor (Firefox before 125) Intl.Segmenter: both are made on first use, and where
 * missing a looser test stands in (the client only reads reactions; the server, on Node 20, has both).
 */
let emojiTest: ((text: string) => boolean) | null = null;

/** The stand-in: a keycap, a flag, or a pictograph with its variation, skin tone, ZWJ partners and tags. */
export const LOOSE_EMOJI = /^(?:[#*0-9]\uFE0F?\u20E3|\p{Regional_Indicator}{2}|\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}]*(?:\u200D\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}]*)*[\u{E0020}-\u{E007F}]*)$/u;

function makeEmojiTest(): (text: string) => boolean {
  try {
    const rgi = new RegExp('^\\p{RGI_Emoji}$', 'v');
    const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    return (text) => {
      const it = graphemes.segment(text)[Symbol.iterator]();
      const first = it.next();
      return !first.done && first.value.segment === text && it.next().done === true && rgi.test(text);
    };
  } catch {
    return (text) => LOOSE_EMOJI.test(text);
  }
}

/** Whether the text is exactly one emoji: one grapheme, and that grapheme one of Unicode's RGI emoji. */
export function isSingleEmoji(text: string): boolean {
  if (text.length === 0 || [...text].length > REACTION_CODE_POINTS) return false;
  emojiTest ??= makeEmojiTest();
  return emojiTest(text);
}

/** Whether a reaction may be given: any single emoji (docs/protocol.md /app/reaction). */
export function isReaction(value: unknown): value is Reaction {
  return typeof value === 'string' && isSingleEmoji(value);
}

// Starts with an English or Korean letter or one of - . ' and continues with letters, spaces or
// - . ' (docs/spec.md §5). Korean covers syllables and compatibility jamo, but not the Hangul
// filler U+3164, which draws nothing (nor the fillers U+115F, U+1160, U+FFA0, outside the ranges).
// The only whitespace is the ASCII space, and not at the end: CR, LF, tab, U+00A0, U+2028 or
// U+FEFF would let "Alice\uFEFF" pass for "Alice".
const KOREAN = '\u3131-\u3163\u3165-\u318E\uAC00-\uD7A3';
const NAME_PATTERN = new RegExp(`^[A-Za-z${KOREAN}\\-.'](?:[A-Za-z${KOREAN} \\-.']*[A-Za-z${KOREAN}\\-.'])?$`);

/** A name as it is checked and stored: Unicode NFC, so decomposed Hangul is the same name. */
export function normalizeName(name: string): string {
  return name.normalize('NFC');
}

/** Whether the name, once normalised (normalizeName), follows the name rule. */
export function isValidName(name: string): boolean {
  const normalized = normalizeName(name);
  return normalized.length >= 1 && normalized.length <= LIMITS.name && NAME_PATTERN.test(normalized);
}

/**
 * Characters no text we store may hold: NUL and the other C0 controls (a message keeps newline
 * and tab), DEL and the C1 controls, the bidi marks, overrides and isolates that make text read
 * differently from what it is (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the
 * invisible ones that make two texts look alike (U+200B–U+200D, U+2060–U+2064, U+FEFF), the line
 * and paragraph separators (U+2028, U+2029), and lone surrogates. Names of rooms also refuse the
 * Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), which draw nothing. docs/spec.md §5.
 */
const INVISIBLE = '\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF';
const FORBIDDEN_IN_MESSAGES = new RegExp(`[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F${INVISIBLE}\\uD800-\\uDFFF]`, 'u');
const FORBIDDEN_IN_NAMES = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F${INVISIBLE}\\u115F\\u1160\\u3164\\uFFA0\\uD800-\\uDFFF]`, 'u');
/**
 * The zero-width joiner is what joins emoji into one (👩‍💻, 🏳️‍🌈): between an emoji (a skin tone
 * or variation selector after it) and another emoji it is allowed; anywhere else it is refused.
 */
const EMOJI_JOINER = /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic})/gu;

export function hasForbiddenCharacters(text: string, kind: 'message' | 'name'): boolean {
  const pattern = kind === 'message' ? FORBIDDEN_IN_MESSAGES : FORBIDDEN_IN_NAMES;
  return pattern.test(text.includes('\u200D') ? text.replace(EMOJI_JOINER, '') : text);
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

/**
 * An attachment's public id (docs/protocol.md, attachments): 128 random bits in base64url, 22
 * characters; anything else names no attachment.
 */
export function toAttachmentId(raw: unknown): string | null {
  return typeof raw === 'string' && /^[A-Za-z0-9_-]{22}$/.test(raw) ? raw : null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A search keyword that is empty or only % after trimming sends no request (docs/spec.md §5); one
 * with control characters finds nobody either (SQLite's LIKE stops at a NUL and would match all).
 */
export function isSearchableKeyword(keyword: string): boolean {
  const trimmed = keyword.trim();
  return trimmed.length > 0 && trimmed !== '%' && trimmed.length <= LIMITS.searchInput && !hasForbiddenCharacters(trimmed, 'name');
}

/** Non-blank and at most 3000 characters once trimmed: the trimmed text is what is stored. */
export function isSendableMessage(content: string): boolean {
  const trimmed = content.trim();
  // The untrimmed text is checked: trim() drops U+2028, U+2029 and U+FEFF, which are refused too.
  return trimmed.length > 0 && trimmed.length <= LIMITS.message && !hasForbiddenCharacters(content, 'message');
}

/** A message's text beside an attachment: may be empty, otherwise a sendable message's. */
export function isSendableCaption(content: string): boolean {
  return content.trim().length === 0 || isSendableMessage(content);
}

export function isValidRoomName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length > 0 && trimmed.length <= LIMITS.roomName && !hasForbiddenCharacters(name, 'name');
}

/**
 * A status message (ours, docs/spec.md §5): at most 60 characters once trimmed (what is stored),
 * with the characters names refuse refused (hasForbiddenCharacters 'name'); empty clears it.
 */
export function isValidStatusMessage(text: string): boolean {
  return text.trim().length <= LIMITS.statusMessage && !hasForbiddenCharacters(text, 'name');
}
