// The grams a message is found by (docs/architecture.md §6a): every character that is not
// whitespace (a "unigram", for one-syllable searches) and every pair of adjacent such characters
// (a "bigram", for two syllables and more), each folded to lower case so Latin text is found in
// any case. A gram is one integer, so the index rows are three integers:
//   unigram = c (a code point, below 0x110000); bigram = c1 * 0x110000 + c2 (at least 0x110000,
//   at most about 1.2e12: exact in a double and in a BIGINT).
// migrations/20261125140000_create_message_bigrams.ts holds a frozen copy of these rules for its
// backfill (migrations are compiled alone); a unit test keeps the two equal.

const PLANE = 0x110000;

/** Code points of the text, each folded to lower case when that keeps it one code point. */
function foldedCodePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // Hangul syllables have no case: the common path skips toLowerCase.
    if (cp >= 0xac00 && cp <= 0xd7a3) {
      out.push(cp);
      continue;
    }
    const lower = [...ch.toLowerCase()];
    out.push(lower.length === 1 ? lower[0].codePointAt(0)! : cp);
  }
  return out;
}

/** What `\s` matches in JavaScript (and what String.prototype.trim removes). */
const SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);
const isSpace = (cp: number) => SPACES.has(cp);

/** The distinct grams of a message's text, in no particular order. */
export function messageGrams(content: string): number[] {
  const cps = foldedCodePoints(content);
  const grams = new Set<number>();
  for (let i = 0; i < cps.length; i += 1) {
    if (isSpace(cps[i])) continue;
    grams.add(cps[i]);
    if (i + 1 < cps.length && !isSpace(cps[i + 1])) grams.add(cps[i] * PLANE + cps[i + 1]);
  }
  return [...grams];
}

export interface KeywordGrams {
  /** Grams every matching message holds (at least one). */
  grams: number[];
  /** True when holding the grams is the same as containing the keyword (one or two characters): no re-check needed. */
  exact: boolean;
}

/**
 * What a (trimmed, non-empty) keyword is looked up by: its bigrams, or its one character. A
 * keyword with no two adjacent non-space characters (`a b`) is looked up by its characters and
 * re-checked. Null when it has no gram at all (cannot happen for a trimmed non-empty keyword).
 */
export function keywordGrams(keyword: string): KeywordGrams | null {
  const cps = foldedCodePoints(keyword);
  const bigrams = new Set<number>();
  const unigrams = new Set<number>();
  for (let i = 0; i < cps.length; i += 1) {
    if (isSpace(cps[i])) continue;
    unigrams.add(cps[i]);
    if (i + 1 < cps.length && !isSpace(cps[i + 1])) bigrams.add(cps[i] * PLANE + cps[i + 1]);
  }
  if (bigrams.size > 0) return { grams: [...bigrams], exact: cps.length === 2 };
  if (unigrams.size > 0) return { grams: [...unigrams], exact: cps.length === 1 };
  return null;
}
