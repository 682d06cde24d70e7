// MariaDB transactions in few round trips: each batch of statements goes as one multi-statement
// query, BEGIN with the first and COMMIT with the last. The message writer's transaction is the
// one write in flight at a time, and each of its round trips waited for the server's busy event
// loop to read the answer: five round trips a batch became two. Only this pool's connections
// allow several statements in a query (mysql2 `multipleStatements`); every statement sent here
// is built from placeholders. SQLite has no round trips to save: there the statements run one by
// one in a Knex transaction.
import mysql from 'mysql2/promise';
import type { Knex } from './knex';

export interface Statement { sql: string; bindings: readonly unknown[] }

export interface Trips {
  /**
   * Sends the statements in one round trip and answers each one's result (rows, or the OK
   * header). `last`: the transaction's last batch, committed with it.
   */
  send(statements: Statement[], last?: boolean): Promise<unknown[]>;
}

export interface FewTrips {
  /** Runs `work` in one transaction; rolls back and rejects on any error. */
  transaction<T>(work: (trips: Trips) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The statements one by one in a Knex transaction of `db`: SQLite's way, and any caller's without a pool of its own. */
export function stepByStep(db: Knex): FewTrips {
  return {
    transaction: (work) =>
      db.transaction((trx) =>
        work({
          async send(statements) {
            const results: unknown[] = [];
            for (const s of statements) results.push(await trx.raw(s.sql, s.bindings as Knex.RawBinding[]));
            return results;
          },
        }),
      ),
    close: async () => {},
  };
}

/**
 * Batches in one round trip each on MariaDB (a pool of its own, each trip's time told to
 * `onTrip`); on SQLite the statements one by one in `db`.
 */
export function fewTripTransactions(databaseUrl: string, db: Knex, onTrip: (seconds: number) => void = () => {}): FewTrips {
  if (!databaseUrl.startsWith('mysql:')) return stepByStep(db);
  // The writer has one transaction in flight at a time: two connections cover a reconnect.
  // trace off: mysql2's promise API otherwise captures a stack trace for every query (4% of the
  // server's CPU at 3000 msg/s); its errors still say what failed, not which caller asked.
  const pool = mysql.createPool({ uri: databaseUrl, multipleStatements: true, connectionLimit: 2, charset: 'utf8mb4', timezone: 'Z', supportBigNumbers: true, trace: false });
  return {
    async transaction(work) {
      const conn = await pool.getConnection();
      let begun = false;
      let committed = false;
      try {
        const result = await work({
          async send(statements, last = false) {
            const sql = [...(begun ? [] : ['begin']), ...statements.map((s) => s.sql), ...(last ? ['commit'] : [])];
            const started = performance.now();
            const [results] = await conn.query(sql.join(';\n'), statements.flatMap((s) => s.bindings));
            onTrip((performance.now() - started) / 1000);
            // One statement answers its result alone; several, an array of them.
            const all = sql.length === 1 ? [results] : (results as unknown[]);
            const mine = all.slice(begun ? 0 : 1, last ? -1 : undefined);
            begun = true;
            committed = last;
            return mine;
          },
        });
        if (begun && !committed) await conn.query('commit');
        conn.release();
        return result;
      } catch (err) {
        // The statements after a failing one did not run, COMMIT neither: undo the rest.
        await conn.query('rollback').then(() => conn.release(), () => conn.destroy());
        throw err;
      }
    },
    close: () => pool.end(),
  };
}
