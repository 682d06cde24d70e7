// ICE servers for a caller: the configured STUN servers, and the TURN servers with
// time-limited credentials of the TURN REST API (coturn's use-auth-secret): the username is
// "{expiry}:{userId}", the credential the base64 HMAC-SHA1 of that username keyed with the
// shared secret. No fixed TURN credential ever leaves the server.
import crypto from 'node:crypto';
import type { IceServer } from '@common/api';

export interface TurnCredentials {
  username: string;
  credential: string;
}

export interface IceServerSettings {
  stunUrls: string[];
  turnUrls: string[];
  turnSecret: string | null;
  turnTtlSeconds: number;
}

export function turnCredentials(userId: number, secret: string, ttlSeconds: number, nowMs: number): TurnCredentials {
  const expiry = Math.floor(nowMs / 1000) + ttlSeconds;
  const username = `${expiry}:${userId}`;
  const credential = crypto.createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

/** TURN servers are left out when no secret is configured: they would refuse every allocation. */
export function iceServersFor(settings: IceServerSettings, userId: number, nowMs: number): IceServer[] {
  const servers: IceServer[] = [];
  if (settings.stunUrls.length > 0) servers.push({ urls: settings.stunUrls });
  if (settings.turnUrls.length > 0 && settings.turnSecret) {
    servers.push({ urls: settings.turnUrls, ...turnCredentials(userId, settings.turnSecret, settings.turnTtlSeconds, nowMs) });
  }
  return servers;
}
