// Subscription ids repeat across connections (clients number them per connection: sub-0, sub-1,
// …), and so do remote addresses behind a proxy or NAT, so each distinct short string is kept once
// and shared by every session that uses it, instead of one copy each (memory per idle session).
// The table is bounded and starts afresh when full, so ids a client makes up can neither grow it
// nor keep real ids out of it for long.

export class Interner {
  private readonly table = new Map<string, string>();

  constructor(
    private readonly maxLength = 64,
    private readonly maxEntries = 4096,
  ) {}

  /** The shared copy of a short string equal to `text` (or `text` itself, when long). */
  intern(text: string): string {
    if (text.length > this.maxLength) return text;
    const known = this.table.get(text);
    if (known !== undefined) return known;
    if (this.table.size >= this.maxEntries) this.table.clear();
    this.table.set(text, text);
    return text;
  }

  /** How many distinct strings are held. */
  get size(): number {
    return this.table.size;
  }
}

const shared = new Interner();

/** The process-wide shared copy of a short string equal to `text`. */
export function intern(text: string): string {
  return shared.intern(text);
}
