// Database errors both engines raise, recognised in one place.

/** A unique-key violation on MariaDB/MySQL or SQLite. */
export function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Error codes of a database that cannot be reached (down, restarting, the network cut). */
const UNAVAILABLE = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT', 'ER_CON_COUNT_ERROR', 'ER_SERVER_SHUTDOWN', 'SQLITE_BUSY',
]);

/**
 * The database could not be reached or was too busy: the same request may succeed in a moment,
 * so it is refused as retryable rather than as a server fault.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; name?: string; fatal?: boolean } | null;
  if (!e) return false;
  return UNAVAILABLE.has(e.code ?? '') || e.name === 'KnexTimeoutError' || (e.fatal === true && typeof e.code === 'string');
}
