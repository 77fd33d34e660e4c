/**
 * What a backup folder holds (`manifest.json`, written last: a folder without it is not a
 * backup). Every file is named with its size and SHA-256, so `sha256sum` can check a copy and the
 * restore checks each file as it reads it.
 *
 *   manifest.json
 *   tables/<table>.ndjson.gz   every row of every logged table of the database, one JSON object a line
 *   blobs.pack.gz              every blob: [32-byte SHA-256][8-byte size][bytes], one after the other
 *   files/…                    the data folder's state: operator-key.sha256, mail/ (test-mode mail)
 */
export const BACKUP_FORMAT = 1;

/**
 * What of the data folder (DATA_DIR) is state: the generated operator key's hash and test-mode
 * mail. (The embedded PostgreSQL's cluster is in the database part; its password is the new
 * instance's own.)
 */
export const DATA_DIR_STATE = ['operator-key.sha256', 'mail'];

export interface BackedUpFile {
  /** Relative to the backup folder. */
  file: string;
  bytes: number;
  sha256: string;
}

export interface BackedUpTable extends BackedUpFile {
  name: string;
  rows: number;
  /** Its columns and their types, as the restoring version must have them. */
  columns: Array<{ name: string; type: string }>;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  /** When the database snapshot was taken: the backup is the state of that moment. */
  snapshot_at: string;
  finished_at: string;
  source: {
    profile: 'embedded-postgres' | 'postgres-server';
    blob_store: 'postgres' | 'fs' | 's3';
    server_version: string;
  };
  /** The event log's last global position in the snapshot, and its number of events. */
  head_position: string;
  events: number;
  tables: BackedUpTable[];
  blobs: BackedUpFile & { count: number; content_bytes: number };
  files: Array<BackedUpFile & { path: string }>;
}
