// Subscription ids repeat across connections (clients number them per connection: sub-0, sub-1,
// …), and so do remote addresses behind a proxy or NAT, so each distinct short string is kept once
// and shared by every session that uses it, instead of one copy each (memory per idle session). The table is bounded and starts afresh
// when full, so ids a client makes up can neither grow it nor keep real ids out of it for long.

const MAX_LENGTH = 64;
const MAX_ENTRIES = 4096;
const table = new Map<string, string>();

/** The shared copy of a short string equal to `text` (or `text` itself). */
export function intern(text: string): string {
  if (text.length > MAX_LENGTH) return text;
  const known = table.get(text);
  if (known !== undefined) return known;
  if (table.size >= MAX_ENTRIES) table.clear();
  table.set(text, text);
  return text;
}
