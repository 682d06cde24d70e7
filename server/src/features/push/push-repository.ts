// The only user of push_subscriptions and push_vapid_keys.
import { createHash } from 'node:crypto';
import type { Knex } from '../../db/knex';

export interface StoredPushSubscription {
  id: number;
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

interface SubscriptionRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

export class PushRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Stores this device's subscription for the session; an endpoint seen before moves to it. The
   * user then keeps only the newest `keep` subscriptions: the oldest are deleted.
   */
  async upsert(userId: number, sessionId: number, endpoint: string, keys: { p256dh: string; auth: string }, nowMs: number, keep: number): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('push_subscriptions')
        .insert({ user_id: userId, session_id: sessionId, endpoint_hash: endpointHash(endpoint), endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at_ms: nowMs })
        .onConflict('endpoint_hash')
        .merge(['user_id', 'session_id', 'endpoint', 'p256dh', 'auth', 'created_at_ms']);
      const older = await trx<SubscriptionRow>('push_subscriptions').where({ user_id: userId }).orderBy([{ column: 'created_at_ms', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(keep).limit(1000).select('id');
      if (older.length > 0) await trx('push_subscriptions').whereIn('id', older.map((r) => r.id)).delete();
    });
  }

  /** Deletes the endpoint if it is the user's; answers whether it was. */
  async deleteOfUser(userId: number, endpoint: string): Promise<boolean> {
    return (await this.db('push_subscriptions').where({ endpoint_hash: endpointHash(endpoint), user_id: userId }).delete()) > 0;
  }

  async delete(id: number): Promise<void> {
    await this.db('push_subscriptions').where({ id }).delete();
  }

  /** The user's newest `limit` subscriptions. */
  async ofUser(userId: number, limit: number): Promise<StoredPushSubscription[]> {
    const rows = await this.db<SubscriptionRow>('push_subscriptions')
      .where({ user_id: userId })
      .orderBy([{ column: 'created_at_ms', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(limit)
      .select('id', 'user_id', 'endpoint', 'p256dh', 'auth');
    return rows.map((r) => ({ id: Number(r.id), userId: Number(r.user_id), endpoint: r.endpoint, keys: { p256dh: r.p256dh, auth: r.auth } }));
  }

  async hasAny(userId: number): Promise<boolean> {
    return (await this.db('push_subscriptions').where({ user_id: userId }).first('id')) !== undefined;
  }

  /** The stored key pair, storing `generated` first if there is none (the first node wins a race). */
  async vapidKeys(generated: () => VapidKeys, nowMs: number): Promise<VapidKeys> {
    const existing = await this.readVapidKeys();
    if (existing) return existing;
    const keys = generated();
    await this.db('push_vapid_keys')
      .insert({ id: 1, public_key: keys.publicKey, private_key: keys.privateKey, created_at_ms: nowMs })
      .onConflict('id')
      .ignore();
    const stored = await this.readVapidKeys();
    if (!stored) throw new Error('the VAPID keys could not be stored');
    return stored;
  }

  private async readVapidKeys(): Promise<VapidKeys | null> {
    const row = await this.db<{ id: number; public_key: string; private_key: string }>('push_vapid_keys').where('id', 1).first('public_key', 'private_key');
    return row ? { publicKey: row.public_key, privateKey: row.private_key } : null;
  }
}
