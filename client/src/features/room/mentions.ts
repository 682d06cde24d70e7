// @ mentions (issue 26), pure: what the composer is asking for as it types '@', the text once a
// member is picked, which members a message names, and where their names sit in a message for
// highlighting. A mention is written as '@' and the member's name; the ids the server gets are
// found again in the text as it is sent, so a mention deleted from the text is not sent.

/** The server keeps at most this many (docs/protocol.md); more are not sent. */
export const MAX_MENTIONS = 50;

export interface Member { userId: number; name: string }

/** The '@' being typed before the caret, and what follows it; null when the caret is not in one. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before[at - 1])) return null; // an e-mail address, not a mention
  const query = before.slice(at + 1);
  if (/[\s@]/.test(query) || query.length > 20) return null;
  return { start: at, query };
}

/** The members a query offers (the user excluded): names starting with it first, then names holding it. */
export function mentionCandidates(members: readonly Member[], myId: number, query: string): Member[] {
  const q = query.trim().toLowerCase();
  const others = members.filter((m) => m.userId !== myId);
  const starts = others.filter((m) => m.name.toLowerCase().startsWith(q));
  const holds = others.filter((m) => !m.name.toLowerCase().startsWith(q) && m.name.toLowerCase().includes(q));
  return [...starts, ...holds];
}

/** The text with the '@query' at `start` replaced by '@name ', and where the caret goes. */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** Whether '@name' stands at `index` as a whole mention (not the start of a longer word). */
function mentionAt(text: string, index: number, name: string): boolean {
  if (index > 0 && !/\s/.test(text[index - 1])) return false;
  const after = text[index + 1 + name.length];
  return after === undefined || /[\s.,!?~)…]/.test(after) || /[^\p{L}\p{N}]/u.test(after) || /[가-힣]/.test(after);
}

/** The members other than the sender the text mentions, in member order, at most MAX_MENTIONS. */
export function mentionedIds(content: string, members: readonly Member[], senderId: number): number[] {
  const ids: number[] = [];
  for (const m of members) {
    if (m.userId === senderId || ids.length >= MAX_MENTIONS) continue;
    const needle = `@${m.name}`;
    for (let i = content.indexOf(needle); i >= 0; i = content.indexOf(needle, i + 1)) {
      if (mentionAt(content, i, m.name)) {
        ids.push(m.userId);
        break;
      }
    }
  }
  return ids;
}

/** The text cut where '@name' of the given names stands: the mentions to highlight, the rest as is. */
export function mentionParts(text: string, names: readonly string[]): { text: string; mention: boolean }[] {
  const sorted = [...new Set(names)].filter(Boolean).sort((a, b) => b.length - a.length);
  const parts: { text: string; mention: boolean }[] = [];
  let plainFrom = 0;
  let i = 0;
  while (i < text.length) {
    const name = text[i] === '@' ? sorted.find((n) => text.startsWith(n, i + 1) && mentionAt(text, i, n)) : undefined;
    if (name === undefined) {
      i += 1;
      continue;
    }
    if (i > plainFrom) parts.push({ text: text.slice(plainFrom, i), mention: false });
    parts.push({ text: `@${name}`, mention: true });
    i += name.length + 1;
    plainFrom = i;
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom), mention: false });
  return parts;
}
