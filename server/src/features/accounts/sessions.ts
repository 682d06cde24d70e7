// Login sessions: a random 256-bit token in the cookie, its SHA-256 in the database, expiring
// after 14 idle days. Any node can check a cookie because the state is in the database; a
// checked cookie is remembered for a few seconds (session-cache.ts), forgotten at once when this
// process ends its session, and on every other node when it hears so (`tellOthers`, through the
// cluster signals, before the session's sockets are closed there).
import type { Clock } from '../types';
import type { Principal, SessionAuthenticator } from '../../transport/route';
import { SessionCache } from './session-cache';
import { type SessionsRepository } from './sessions-repository';
import { randomToken, sha256Hex } from './tokens';

export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
/** Last use is written at most this often, so busy sessions do not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface NewSession {
  token: string;
  sessionId: string;
}

export class Sessions implements SessionAuthenticator {
  /**
   * The one database lookup running per cookie, shared by every check of that cookie meanwhile:
   * after a node dies, a user's 20 sockets and their catch-ups come to the survivor within a few
   * seconds with a cookie it has never cached, and each must not cost its own query (and touch).
   * Shared only while no session ended since it started (the cache's generation).
   */
  private readonly lookups = new Map<string, { generation: number; principal: Promise<Principal | null> }>();

  constructor(
    private readonly repo: SessionsRepository,
    private readonly clock: Clock,
    private readonly cache = new SessionCache(),
    /** Tells the other nodes that the session ended (they call forgetCached). */
    private readonly tellOthers: (sessionId: string) => void = () => {},
  ) {}

  /** Another node ended the session: a cookie remembered here no longer passes. */
  forgetCached(sessionId: string): void {
    this.cache.forget(sessionId);
  }

  /** News from other nodes may have been lost: every cookie is checked in the database again. */
  forgetAllCached(): void {
    this.cache.forgetAll();
  }

  async create(userId: number): Promise<NewSession> {
    const token = randomToken();
    const now = this.clock();
    // Sessions abandoned without logout are pruned as their owner logs in again.
    await this.repo.deleteIdleOf(userId, now - SESSION_IDLE_MS);
    const id = await this.repo.insert(sha256Hex(token), userId, now);
    return { token, sessionId: String(id) };
  }

  async authenticate(token: string): Promise<Principal | null> {
    if (token.length === 0 || token.length > 200) return null;
    const tokenHash = sha256Hex(token);
    const now = this.clock();
    // A cached session needs no round trip until it is due a touch (or could have expired).
    const cached = this.cache.get(tokenHash);
    if (cached && now - cached.lastSeenAtMs < TOUCH_INTERVAL_MS) return cached.principal;
    const generation = this.cache.generation();
    const running = this.lookups.get(tokenHash);
    if (running && running.generation === generation) return running.principal;
    const lookup = { generation, principal: this.lookUp(tokenHash, now, generation) };
    this.lookups.set(tokenHash, lookup);
    try {
      return await lookup.principal;
    } finally {
      if (this.lookups.get(tokenHash) === lookup) this.lookups.delete(tokenHash);
    }
  }

  private async lookUp(tokenHash: string, now: number, generation: number): Promise<Principal | null> {
    const session = await this.repo.findByTokenHash(tokenHash);
    if (!session) return null;
    if (now - session.lastSeenAtMs >= SESSION_IDLE_MS) {
      this.cache.forget(String(session.id));
      await this.repo.delete(session.id);
      return null;
    }
    let lastSeenAtMs = session.lastSeenAtMs;
    if (now - lastSeenAtMs >= TOUCH_INTERVAL_MS) {
      await this.repo.touch(session.id, now);
      lastSeenAtMs = now;
    }
    const principal = { userId: session.userId, sessionId: String(session.id) };
    this.cache.put(tokenHash, principal, lastSeenAtMs, generation);
    return principal;
  }

  /** The ids of the user's other login sessions (all but `keepSessionId`). */
  async othersOf(userId: number, keepSessionId: string): Promise<string[]> {
    return (await this.repo.idsOfUserExcept(userId, Number(keepSessionId))).map(String);
  }

  async destroy(sessionId: string): Promise<void> {
    // Forgotten before the delete and after it: a lookup that overlapped either is not cached.
    this.cache.forget(sessionId);
    const id = Number(sessionId);
    if (Number.isSafeInteger(id)) await this.repo.delete(id);
    this.cache.forget(sessionId);
    this.tellOthers(sessionId);
  }
}
