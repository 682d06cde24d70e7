// OAuth identities (provider, subject) → user, and pending logins (state digest → PKCE verifier).
import type { OAuthProvider } from '@common/api';
import type { Knex } from '../../db/knex';

interface PendingLoginRow {
  state_hash: string;
  provider: OAuthProvider;
  code_verifier: string;
  client_address: string;
  expires_at_ms: number | string;
}

interface IdentityRow {
  provider: OAuthProvider;
  subject: string;
  user_id: number;
  created_at_ms: number | string;
}

export class OAuthRepository {
  constructor(private readonly db: Knex) {}

  async savePending(stateHash: string, provider: OAuthProvider, codeVerifier: string, clientAddress: string, expiresAtMs: number, nowMs: number): Promise<void> {
    // Abandoned logins are pruned as new ones start.
    await this.db('oauth_pending_logins').where('expires_at_ms', '<=', nowMs).delete();
    await this.db('oauth_pending_logins').insert({
      state_hash: stateHash, provider, code_verifier: codeVerifier, client_address: clientAddress, expires_at_ms: expiresAtMs,
    });
  }

  /** Pending (unexpired) logins: all of them, and those started from one client address. */
  async pendingCounts(clientAddress: string, nowMs: number): Promise<{ all: number; fromAddress: number }> {
    const [all, fromAddress] = await Promise.all([
      this.db('oauth_pending_logins').where('expires_at_ms', '>', nowMs).count({ n: '*' }).first(),
      this.db('oauth_pending_logins').where({ client_address: clientAddress }).andWhere('expires_at_ms', '>', nowMs).count({ n: '*' }).first(),
    ]);
    return { all: Number(all?.n ?? 0), fromAddress: Number(fromAddress?.n ?? 0) };
  }

  /** Takes a pending login out (one use only); its verifier, or null when unknown, spent or expired. */
  async takePending(stateHash: string, provider: OAuthProvider, nowMs: number): Promise<string | null> {
    const row = await this.db<PendingLoginRow>('oauth_pending_logins').where({ state_hash: stateHash, provider }).first('code_verifier', 'expires_at_ms');
    if (!row) return null;
    const deleted = await this.db('oauth_pending_logins').where({ state_hash: stateHash }).delete();
    // Two callbacks racing for one state: only the one that deleted the row proceeds.
    if (deleted === 0 || Number(row.expires_at_ms) <= nowMs) return null;
    return row.code_verifier;
  }

  async userIdFor(provider: OAuthProvider, subject: string): Promise<number | null> {
    const row = await this.db<IdentityRow>('oauth_identities').where({ provider, subject }).first('user_id');
    return row ? Number(row.user_id) : null;
  }

  async link(provider: OAuthProvider, subject: string, userId: number, nowMs: number, trx: Knex = this.db): Promise<void> {
    await trx('oauth_identities').insert({ provider, subject, user_id: userId, created_at_ms: nowMs });
  }

  /**
   * Creates the user (with `createUser`, the users table's own insert) and links the identity
   * to it in one transaction: no account without its link, no link without its account.
   */
  linkNewUser(provider: OAuthProvider, subject: string, nowMs: number, createUser: (trx: Knex) => Promise<number>): Promise<number> {
    return this.db.transaction(async (trx) => {
      const userId = await createUser(trx);
      await this.link(provider, subject, userId, nowMs, trx);
      return userId;
    });
  }
}
