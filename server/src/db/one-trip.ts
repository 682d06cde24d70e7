// A MariaDB transaction sent in one round trip: BEGIN, its statements and COMMIT as one
// multi-statement query. The message writer's transaction is the one write in flight at a time,
// and each of its round trips waited for the server's busy event loop to read the answer: five
// round trips a batch became one. Only this pool's connections allow several statements in a
// query (mysql2 `multipleStatements`); every statement here is built from placeholders.
// SQLite has no round trips to save: there the statements run one by one in a Knex transaction.
import mysql from 'mysql2/promise';
import type { Knex } from './knex';

export interface Statement { sql: string; bindings: readonly unknown[] }

export interface OneTrip {
  /** Runs the statements in one transaction; answers each one's result (rows, or the OK header). Rolls back and rejects on any error. */
  transaction(statements: Statement[]): Promise<unknown[]>;
  close(): Promise<void>;
}

/** The same statements one by one in a Knex transaction of `db`: SQLite's way, and any caller's without a pool of its own. */
export function stepByStep(db: Knex): OneTrip {
  return {
    transaction: (statements) =>
      db.transaction(async (trx) => {
        const results: unknown[] = [];
        for (const s of statements) results.push(await trx.raw(s.sql, s.bindings as Knex.RawBinding[]));
        return results;
      }),
    close: async () => {},
  };
}

/** One round trip on MariaDB (a pool of its own); on SQLite the statements one by one in `db`. */
export function oneTripTransactions(databaseUrl: string, db: Knex): OneTrip {
  if (!databaseUrl.startsWith('mysql:')) return stepByStep(db);
  // The writer has one transaction in flight at a time: two connections cover a reconnect.
  const pool = mysql.createPool({ uri: databaseUrl, multipleStatements: true, connectionLimit: 2, charset: 'utf8mb4', timezone: 'Z', supportBigNumbers: true });
  return {
    async transaction(statements) {
      const conn = await pool.getConnection();
      try {
        const sql = ['begin', ...statements.map((s) => s.sql), 'commit'].join(';\n');
        const [results] = await conn.query(sql, statements.flatMap((s) => s.bindings));
        conn.release();
        return (results as unknown[]).slice(1, -1);
      } catch (err) {
        // The statements after the failing one did not run, COMMIT neither: undo the rest.
        await conn.query('rollback').then(() => conn.release(), () => conn.destroy());
        throw err;
      }
    },
    close: () => pool.end(),
  };
}
