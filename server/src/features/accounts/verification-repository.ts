// E-mail verification state (current code, wrong tries, verified-until) and the send log.
import type { Knex } from '../../db/knex';

export interface VerificationRow {
  email: string;
  code_hash: string | null;
  code_salt: string | null;
  code_expires_at_ms: number | string | null;
  failed_attempts: number;
  verified_until_ms: number | string | null;
}

export interface StoredCode {
  hash: string;
  salt: string;
}

export class VerificationRepository {
  constructor(private readonly db: Knex) {}

  /** Logs a send and returns its id (so a failed mail can take it back); older sends are forgotten. */
  async recordSend(email: string, clientAddress: string, atMs: number, forgetBeforeMs: number): Promise<number> {
    await this.db('email_verification_sends').where('sent_at_ms', '<=', forgetBeforeMs).andWhere((q) => q.where({ email }).orWhere({ client_address: clientAddress })).delete();
    const [id] = await this.db('email_verification_sends').insert({ email, client_address: clientAddress, sent_at_ms: atMs });
    return Number(id);
  }

  /** Times of the sends to this e-mail address since `sinceMs`, but `exceptId`. */
  sendTimesSince(email: string, sinceMs: number, exceptId: number): Promise<number[]> {
    return this.sendTimes({ email }, sinceMs, exceptId);
  }

  /** Times of the sends asked from this client address (to any e-mail address) since `sinceMs`, but `exceptId`. */
  sendTimesFromAddressSince(clientAddress: string, sinceMs: number, exceptId: number): Promise<number[]> {
    return this.sendTimes({ client_address: clientAddress }, sinceMs, exceptId);
  }

  private async sendTimes(where: Record<string, string>, sinceMs: number, exceptId: number): Promise<number[]> {
    const rows = await this.db('email_verification_sends')
      .where(where)
      .andWhere('sent_at_ms', '>', sinceMs)
      .andWhereNot({ id: exceptId })
      .select('sent_at_ms');
    return rows.map((r: { sent_at_ms: number | string }) => Number(r.sent_at_ms));
  }

  async deleteSend(id: number): Promise<void> {
    await this.db('email_verification_sends').where({ id }).delete();
  }

  /** Stores a fresh code for the address, replacing any earlier one and its wrong tries. */
  async storeCode(email: string, code: StoredCode, expiresAtMs: number): Promise<void> {
    await this.db('email_verifications')
      .insert({ email, code_hash: code.hash, code_salt: code.salt, code_expires_at_ms: expiresAtMs, failed_attempts: 0, verified_until_ms: null })
      .onConflict('email')
      .merge(['code_hash', 'code_salt', 'code_expires_at_ms', 'failed_attempts']);
  }

  async clearCode(email: string, hash: string): Promise<void> {
    await this.db('email_verifications').where({ email, code_hash: hash }).update({ code_hash: null, code_salt: null, code_expires_at_ms: null });
  }

  /**
   * Spends one try on the live code, atomically, before it is compared: parallel guesses cannot
   * exceed the limit. Returns the code tried, or null when there is no live code to try.
   */
  async spendAttempt(email: string, nowMs: number, maxAttempts: number): Promise<StoredCode | null> {
    const spent = await this.db('email_verifications')
      .where({ email })
      .whereNotNull('code_hash')
      .andWhere('code_expires_at_ms', '>', nowMs)
      .andWhere('failed_attempts', '<', maxAttempts)
      .increment('failed_attempts', 1);
    if (spent === 0) return null;
    const row = await this.db<VerificationRow>('email_verifications').where({ email }).first();
    return row?.code_hash && row.code_salt ? { hash: row.code_hash, salt: row.code_salt } : null;
  }

  /** The right code: it is used up and the address counts as verified until the given time. */
  async markVerified(email: string, hash: string, untilMs: number): Promise<void> {
    await this.db('email_verifications')
      .where({ email, code_hash: hash })
      .update({ code_hash: null, code_salt: null, code_expires_at_ms: null, failed_attempts: 0, verified_until_ms: untilMs });
  }

  async isVerified(email: string, nowMs: number): Promise<boolean> {
    const row = await this.db<VerificationRow>('email_verifications').where({ email }).andWhere('verified_until_ms', '>', nowMs).first('email');
    return row !== undefined;
  }

  async forget(email: string): Promise<void> {
    await this.db('email_verifications').where({ email }).delete();
  }
}
