// A short-lived in-process cache of checked session cookies (a history request otherwise spent a
// database round trip on its cookie before anything else). An entry lives 5 s of real time at
// most (SESSION_CACHE_TTL_MS; 0 turns the cache off); this process forgets a session at once when it ends it (logout, a new login in the same
// browser, a password change, expiry), so a logout is seen at once here. Another node's logout
// reaches this one within the 5 s, unless it is told sooner (forget). Bounded in size.
import type { Principal } from '../../transport/route';

export const SESSION_CACHE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: Principal;
  /** The session's last use as stored (for the idle expiry and the touch). */
  lastSeenAtMs: number;
  expiresAt: number;
}

export class SessionCache {
  private readonly byTokenHash = new Map<string, Entry>();
  private readonly tokenHashOf = new Map<string, string>();
  /** Bumped by every forget: a lookup that overlapped one may have read an ended session. */
  private forgets = 0;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
  ) {}

  get(tokenHash: string): Entry | null {
    if (this.ttlMs === 0) return null;
    const entry = this.byTokenHash.get(tokenHash);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.drop(tokenHash, entry);
      return null;
    }
    return entry;
  }

  /** Taken before a database lookup and handed to put(). */
  generation(): number {
    return this.forgets;
  }

  /** Remembers a session looked up at `generation`, unless a session ended since. */
  put(tokenHash: string, principal: Principal, lastSeenAtMs: number, generation: number): void {
    if (generation !== this.forgets || this.ttlMs === 0) return;
    const old = this.byTokenHash.get(tokenHash);
    if (old) this.drop(tokenHash, old);
    if (this.byTokenHash.size >= MAX_ENTRIES) {
      const [oldestHash, oldest] = this.byTokenHash.entries().next().value as [string, Entry];
      this.drop(oldestHash, oldest);
    }
    this.byTokenHash.set(tokenHash, { principal, lastSeenAtMs, expiresAt: this.now() + this.ttlMs });
    this.tokenHashOf.set(principal.sessionId, tokenHash);
  }

  /** The session ended: it is not answered from the cache again. */
  forget(sessionId: string): void {
    this.forgets += 1;
    const tokenHash = this.tokenHashOf.get(sessionId);
    const entry = tokenHash === undefined ? undefined : this.byTokenHash.get(tokenHash);
    if (tokenHash !== undefined && entry) this.drop(tokenHash, entry);
    this.tokenHashOf.delete(sessionId);
  }

  /** Forgets every session (news of ended sessions may have been lost: the cluster bus was down). */
  forgetAll(): void {
    this.forgets += 1;
    this.byTokenHash.clear();
    this.tokenHashOf.clear();
  }

  private drop(tokenHash: string, entry: Entry): void {
    this.byTokenHash.delete(tokenHash);
    this.tokenHashOf.delete(entry.principal.sessionId);
  }
}
