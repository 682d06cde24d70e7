// An UPDATE that gives each of many keyed rows its own new values, in one statement: the values
// are a derived table joined on the key. The alternative, `set col = case when key = ? then ?
// … end where key = ? or …`, makes every matched row walk every branch: measured on MariaDB with
// 300 read positions, 16 ms a statement against 2.8 ms joined, and the rows stay locked meanwhile
// (the message transaction's authors wait on them). MariaDB joins in a multi-table UPDATE;
// SQLite (3.33 and later) takes UPDATE … FROM.
import type { Statement } from './few-trips';

export interface KeyedUpdate {
  table: string;
  /** The derived table's columns, in the order of each row's values. */
  columns: readonly string[];
  rows: ReadonlyArray<readonly unknown[]>;
  /** Columns named alike in the table and the values: the rows to update. Keys must not repeat. */
  key: readonly string[];
  /** Table column ← values column. */
  set: ReadonlyArray<readonly [string, string]>;
  /** Which matched rows change, in terms of `t.` (the table) and `v.` (the values). */
  where: string;
}

export function updateFromValues(sqlite: boolean, u: KeyedUpdate): Statement {
  const placeholders = `(${u.columns.map(() => '?').join(', ')})`;
  // MariaDB names a VALUES table's columns after its first row, so there the rows are a UNION ALL
  // of selects; SQLite names them column1…, renamed here (its UNION ALL allows only 500 parts).
  const values = sqlite
    ? `(select ${u.columns.map((c, i) => `column${i + 1} as ${c}`).join(', ')} from (values ${u.rows.map(() => placeholders).join(', ')}))`
    : `(${u.rows.map((_r, i) => `select ${u.columns.map((c) => (i === 0 ? `? as ${c}` : '?')).join(', ')}`).join(' union all ')})`;
  const on = u.key.map((k) => `t.${k} = v.${k}`).join(' and ');
  const sql = sqlite
    ? `update ${u.table} as t set ${u.set.map(([col, from]) => `${col} = v.${from}`).join(', ')} from ${values} as v where ${on} and (${u.where})`
    : `update ${u.table} as t join ${values} as v on ${on} set ${u.set.map(([col, from]) => `t.${col} = v.${from}`).join(', ')} where ${u.where}`;
  return { sql, bindings: u.rows.flat() };
}
