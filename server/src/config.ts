// The environment, parsed and validated once (docs/operations.md, Configuration). Nothing else reads process.env.
import { GROUP_CALL_MAX_DEFAULT } from '@common/group-call';

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
}

export interface Config {
  port: number;
  host: string;
  /** From PUBLIC_URL, or http://localhost:{port} (then resolved after listening, for port 0). */
  publicUrl: string;
  publicUrlFromPort: boolean;
  publicOrigin: string;
  secureCookies: boolean;
  databaseUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  mailDir: string;
  staticDir: string;
  /**
   * Attachments' bytes in this folder (ATTACHMENTS_DIR), for a single node; unset: in the
   * database (attachment_chunks), which every node of a cluster shares.
   */
  attachmentsDir: string | null;
  oauth: { google: OAuthClientConfig | null; kakao: OAuthClientConfig | null };
  stunUrls: string[];
  turnUrls: string[];
  turnSecret: string | null;
  turnTtlSeconds: number;
  /** How long a call may ring unanswered (CALL_RING_TIMEOUT_MS; tests shorten it). */
  callRingTimeoutMs?: number;
  /**
   * How long an accepted call waits for a party whose last connection closed
   * (CALL_RECONNECT_GRACE_MS, 30 s; tests shorten it).
   */
  callReconnectGraceMs?: number;
  /**
   * Group calls' media servers (JANUS_URLS, each …/janus of Janus' HTTP API) and the api_secret
   * they share (JANUS_API_SECRET). Empty: one embedded Janus (JANUS_BIN, `janus` by default),
   * started at the first group call, when it runs here; otherwise group calls are unavailable.
   */
  janusUrls: string[];
  janusApiSecret: string | null;
  janusBinary: string;
  /** The most participants of one group call (GROUP_CALL_MAX, 10). */
  groupCallMax: number;
  /**
   * How long a group call keeps the place of a participant whose last connection closed
   * (GROUP_CALL_RECONNECT_GRACE_MS, 15 s; tests shorten it).
   */
  groupCallReconnectGraceMs?: number;
  /** Open WebSockets one user, and one client address, may hold. */
  maxConnectionsPerUser: number;
  maxConnectionsPerAddress: number;
  /** A WebSocket that has not sent CONNECT this long after opening is closed. */
  connectTimeoutMs: number;
  /** How long a checked session cookie is answered from memory; 0 turns the cache off. */
  sessionCacheTtlMs: number;
  /** Proxies whose X-Forwarded-For names the client's address (HAProxy, nginx in front). */
  trustedProxies: string[];
  /** The cluster bus and shared state (redis://host:port); unset: one process alone. */
  redisUrl: string | null;
  /** Server processes `npm start` runs on the port (WORKERS); more than one needs Redis and MariaDB. */
  workers: number;
  /**
   * Web Push: the VAPID key pair (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, both or neither; when
   * unset one is generated once and kept in the database) and the contact it names
   * (VAPID_SUBJECT, a mailto: or https: URL; by default the address of MAIL_FROM).
   */
  vapid: { publicKey: string; privateKey: string } | null;
  vapidSubject: string;
  /**
   * OUTBOUND_ALLOW_HOSTS, for tests only: exact host:port entries the outbound guard lets through
   * on plain http and to any address (a push service played on loopback). docs/operations.md.
   */
  outboundAllowHosts: string[];
  /** LINK_PREVIEWS (on by default; `off` turns them off): previews of the first link of a message. docs/operations.md. */
  linkPreviews: boolean;
  /** Attachments' limits per user and the sweep of unsent uploads (docs/operations.md, attachments). */
  attachmentLimits: AttachmentLimits;
  /** Bearer token that opens GET /metrics; unset: /metrics answers 404. */
  metricsToken: string | null;
  logLevel: string;
}

export interface AttachmentLimits {
  /** Bytes of a user's uploads not yet sent in a message (ATTACHMENTS_UNSENT_QUOTA_BYTES); past it 413. */
  unsentQuotaBytes: number;
  /** Bytes a user may upload a UTC day (ATTACHMENTS_DAILY_QUOTA_BYTES); past it 429 until midnight UTC. */
  dailyQuotaBytes: number;
  /** An upload never sent is removed this long after it was made (ATTACHMENTS_UNSENT_TTL_MS). */
  unsentTtlMs: number;
  /** How often each node sweeps unsent uploads past that age (ATTACHMENTS_SWEEP_INTERVAL_MS). */
  sweepIntervalMs: number;
  /** Downloads (files and thumbnails) a user may start a second on a node, and in a burst. */
  downloadsPerSecond: number;
  downloadBurst: number;
  /** Thumbnails made at once by a process (THUMBNAIL_SLOTS), one user at most one of them. */
  thumbnailSlots: number;
  /** The ffmpeg that reads voice messages (FFMPEG_PATH, default `ffmpeg` on PATH); missing, voice uploads are refused. */
  ffmpegPath?: string;
}

const MiB = 1024 * 1024;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** The default of SESSION_CACHE_TTL_MS (features/accounts/session-cache.ts). */
const SESSION_CACHE_TTL_MS = 5000;

function int(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function list(env: Env, key: string): string[] {
  return (env[key] ?? '').split(/[\s,]+/).filter(Boolean);
}

function oauthClient(env: Env, prefix: 'GOOGLE' | 'KAKAO', defaults: { auth: string; token: string; userInfo: string }): OAuthClientConfig | null {
  const clientId = env[`${prefix}_CLIENT_ID`];
  if (!clientId) return null;
  return {
    clientId,
    // Kakao allows clients without a secret; Google always issues one.
    clientSecret: env[`${prefix}_CLIENT_SECRET`] ?? '',
    authUrl: env[`${prefix}_AUTH_URL`] || defaults.auth,
    tokenUrl: env[`${prefix}_TOKEN_URL`] || defaults.token,
    userInfoUrl: env[`${prefix}_USERINFO_URL`] || defaults.userInfo,
  };
}

function vapidKeys(env: Env): Config['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY || '';
  const privateKey = env.VAPID_PRIVATE_KEY || '';
  if (!publicKey && !privateKey) return null;
  if (!publicKey || !privateKey) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  if (!/^[A-Za-z0-9_-]{87}$/.test(publicKey)) throw new ConfigError('VAPID_PUBLIC_KEY must be a base64url P-256 public key (87 characters)');
  if (!/^[A-Za-z0-9_-]{43}$/.test(privateKey)) throw new ConfigError('VAPID_PRIVATE_KEY must be a base64url P-256 private key (43 characters)');
  return { publicKey, privateKey };
}

function vapidSubject(env: Env, mailFrom: string): string {
  const valid = /^(mailto:\S+@\S+|https:\/\/\S+)$/;
  if (env.VAPID_SUBJECT) {
    if (!valid.test(env.VAPID_SUBJECT)) throw new ConfigError(`VAPID_SUBJECT must be a mailto: or https: URL, got "${env.VAPID_SUBJECT}"`);
    return env.VAPID_SUBJECT;
  }
  const fromMail = `mailto:${/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim()}`;
  return valid.test(fromMail) ? fromMail : 'mailto:no-reply@localhost';
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  let origin: URL;
  try {
    origin = new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL is not a URL: "${publicUrl}"`);
  }
  const databaseUrl = env.DATABASE_URL || 'sqlite:var/letschat.sqlite3';
  if (!/^(sqlite:|mysql:\/\/)/.test(databaseUrl)) throw new ConfigError('DATABASE_URL must start with sqlite: or mysql://');
  const mailFrom = env.MAIL_FROM || "Let's Chat <no-reply@localhost>";
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl,
    publicUrlFromPort: !env.PUBLIC_URL,
    publicOrigin: origin.origin,
    secureCookies: origin.protocol === 'https:',
    databaseUrl,
    smtpUrl: env.SMTP_URL || null,
    mailFrom,
    mailDir: env.MAIL_DIR || 'var/mail',
    staticDir: env.STATIC_DIR || 'dist',
    attachmentsDir: env.ATTACHMENTS_DIR || null,
    oauth: {
      google: oauthClient(env, 'GOOGLE', {
        auth: 'https://accounts.google.com/o/oauth2/v2/auth',
        token: 'https://oauth2.googleapis.com/token',
        userInfo: 'https://openidconnect.googleapis.com/v1/userinfo',
      }),
      kakao: oauthClient(env, 'KAKAO', {
        auth: 'https://kauth.kakao.com/oauth/authorize',
        token: 'https://kauth.kakao.com/oauth/token',
        userInfo: 'https://kapi.kakao.com/v2/user/me',
      }),
    },
    stunUrls: list(env, 'STUN_URLS'),
    turnUrls: list(env, 'TURN_URLS'),
    turnSecret: env.TURN_SECRET || null,
    turnTtlSeconds: int(env, 'TURN_TTL', 3600, 60, 7 * 24 * 3600),
    callRingTimeoutMs: int(env, 'CALL_RING_TIMEOUT_MS', 60_000, 100, 3_600_000),
    callReconnectGraceMs: int(env, 'CALL_RECONNECT_GRACE_MS', 30_000, 100, 3_600_000),
    janusUrls: janusUrls(env),
    janusApiSecret: env.JANUS_API_SECRET || null,
    janusBinary: env.JANUS_BIN || 'janus',
    groupCallMax: int(env, 'GROUP_CALL_MAX', GROUP_CALL_MAX_DEFAULT, 2, 100),
    groupCallReconnectGraceMs: int(env, 'GROUP_CALL_RECONNECT_GRACE_MS', 15_000, 100, 3_600_000),
    maxConnectionsPerUser: int(env, 'MAX_CONNECTIONS_PER_USER', 20, 1, 10_000),
    maxConnectionsPerAddress: int(env, 'MAX_CONNECTIONS_PER_ADDRESS', 200, 1, 1_000_000),
    connectTimeoutMs: int(env, 'STOMP_CONNECT_TIMEOUT_MS', 10_000, 100, 600_000),
    sessionCacheTtlMs: int(env, 'SESSION_CACHE_TTL_MS', SESSION_CACHE_TTL_MS, 0, 60_000),
    trustedProxies: list(env, 'TRUSTED_PROXIES'),
    redisUrl: redisUrl(env.REDIS_URL),
    workers: workers(env, port, databaseUrl),
    vapid: vapidKeys(env),
    vapidSubject: vapidSubject(env, mailFrom),
    outboundAllowHosts: outboundAllowHosts(env),
    linkPreviews: onOff(env, 'LINK_PREVIEWS', true),
    attachmentLimits: {
      unsentQuotaBytes: int(env, 'ATTACHMENTS_UNSENT_QUOTA_BYTES', 100 * MiB, 1, Number.MAX_SAFE_INTEGER),
      dailyQuotaBytes: int(env, 'ATTACHMENTS_DAILY_QUOTA_BYTES', 1024 * MiB, 1, Number.MAX_SAFE_INTEGER),
      unsentTtlMs: int(env, 'ATTACHMENTS_UNSENT_TTL_MS', 24 * 3600_000, 1000, 365 * 24 * 3600_000),
      sweepIntervalMs: int(env, 'ATTACHMENTS_SWEEP_INTERVAL_MS', 10 * 60_000, 50, 24 * 3600_000),
      downloadsPerSecond: int(env, 'ATTACHMENT_DOWNLOADS_PER_SECOND', 20, 1, 1_000_000),
      downloadBurst: int(env, 'ATTACHMENT_DOWNLOAD_BURST', 100, 1, 1_000_000),
      thumbnailSlots: int(env, 'THUMBNAIL_SLOTS', 2, 1, 64),
      ffmpegPath: env.FFMPEG_PATH || 'ffmpeg',
    },
    metricsToken: env.METRICS_TOKEN || null,
    logLevel: env.LOG_LEVEL || 'info',
  };
}

function workers(env: Env, port: number, databaseUrl: string): number {
  const n = int(env, 'WORKERS', 1, 1, 256);
  if (n === 1) return n;
  if (!env.REDIS_URL) throw new ConfigError('WORKERS above 1 needs REDIS_URL: the workers share calls, sessions and fan-out through Redis');
  if (!databaseUrl.startsWith('mysql://')) throw new ConfigError('WORKERS above 1 needs DATABASE_URL=mysql://…: SQLite is for one process');
  if (port === 0) throw new ConfigError('WORKERS above 1 needs a fixed PORT for the workers to share');
  return n;
}

function outboundAllowHosts(env: Env): string[] {
  const entries = list(env, 'OUTBOUND_ALLOW_HOSTS').map((entry) => entry.toLowerCase());
  for (const entry of entries) {
    // A host as a URL holds it (a name, dotted IPv4 or bracketed IPv6) and an explicit port.
    if (!/^([a-z0-9.-]+|\[[0-9a-f:.]+\]):[0-9]{1,5}$/.test(entry)) throw new ConfigError(`OUTBOUND_ALLOW_HOSTS entries must be host:port, got "${entry}"`);
  }
  return entries;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

function janusUrls(env: Env): string[] {
  const urls = list(env, 'JANUS_URLS');
  for (const url of urls) {
    if (!/^https?:\/\/[^\s/]+\/\S*$/.test(url)) throw new ConfigError(`JANUS_URLS entries must be http(s)://host:port/janus, got "${url}"`);
  }
  return urls;
}

function redisUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got "${raw}"`);
  return raw;
}

/** The configuration once the real port is known (PORT=0 picks one at listen time). */
export function withListeningPort(config: Config, port: number): Config {
  if (!config.publicUrlFromPort) return { ...config, port };
  const publicUrl = `http://localhost:${port}`;
  return { ...config, port, publicUrl, publicOrigin: new URL(publicUrl).origin };
}
