import type pg from 'pg';
import type { BackedUpTable } from './backupManifest.js';
import { linesOf, readChecked } from './backupFiles.js';
import { columnsOf, quoted } from './databaseSnapshot.js';

const ROWS_PER_INSERT = 1000;
const BYTES_PER_INSERT = 4 * 1024 * 1024;

/**
 * The tables of a backup that this version's schema does not have as the backup has them: the
 * backup was made by another version (restore with that one, then upgrade), or is not for this
 * service.
 */
export async function schemaDifferences(client: pg.ClientBase, tables: BackedUpTable[]): Promise<string[]> {
  const differences: string[] = [];
  for (const table of tables) {
    const here = await columnsOf(client, table.name);
    const same =
      here.length === table.columns.length &&
      here.every((c, i) => c.name === table.columns[i]!.name && c.type === table.columns[i]!.type);
    if (!same)
      differences.push(
        here.length === 0
          ? `table ${table.name} does not exist here`
          : `table ${table.name} has columns (${here.map((c) => `${c.name} ${c.type}`).join(', ')}), the backup (${table.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`,
      );
  }
  return differences;
}

/**
 * Loads a backup's tables into the database in one transaction: every table the backup has is
 * emptied and filled with the backup's rows (each file checked against the manifest), the
 * sequences are moved past the rows, and the jobs that were running at the snapshot are unlocked
 * (no process of this instance runs them). All or nothing: a damaged file rolls everything back.
 */
export async function loadTables(client: pg.ClientBase, folder: string, tables: BackedUpTable[]): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`TRUNCATE ${tables.map((t) => quoted(t.name)).join(', ')}`);
    for (const table of tables) {
      const { content, verified } = readChecked(folder, table);
      let batch: string[] = [];
      let bytes = 0;
      let rows = 0;
      const insert = async () => {
        if (batch.length === 0) return;
        await client.query(
          `INSERT INTO ${quoted(table.name)} SELECT * FROM json_populate_recordset(NULL::${quoted(table.name)}, $1::json)`,
          [`[${batch.join(',')}]`],
        );
        rows += batch.length;
        batch = [];
        bytes = 0;
      };
      for await (const line of linesOf(content)) {
        if (line === '') continue;
        batch.push(line);
        bytes += line.length;
        if (batch.length >= ROWS_PER_INSERT || bytes >= BYTES_PER_INSERT) await insert();
      }
      await insert();
      verified();
      if (rows !== table.rows) throw new Error(`${table.file} has ${rows} rows, the manifest says ${table.rows}`);
    }
    await moveSequencesPastRows(client);
    if (tables.some((t) => t.name === 'agenda_jobs')) await client.query('UPDATE agenda_jobs SET locked_at = NULL');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Every sequence owned by a column starts after the column's largest value. */
async function moveSequencesPastRows(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ sequence: string; table: string; column: string }>(
    `SELECT s.relname AS sequence, t.relname AS table, a.attname AS column
       FROM pg_class s
       JOIN pg_namespace n ON n.oid = s.relnamespace AND n.nspname = current_schema()
       JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE s.relkind = 'S'`,
  );
  for (const { sequence, table, column } of rows)
    await client.query(
      `SELECT setval($1::regclass, COALESCE((SELECT max(${quoted(column)}) FROM ${quoted(table)}), 0) + 1, false)`,
      [quoted(sequence)],
    );
}
