import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CheckpointPublisher, SignedCheckpoint } from '../../application/ports/historyChain.js';
import { checkpointJson } from '../../application/history/checkpointJson.js';

/**
 * Appends each checkpoint, one JSON line, to the file the operator names (HISTORY_CHECKPOINT_FILE):
 * a copy outside the database, which `npm run verify-history -- --checkpoints FILE` compares with it.
 */
export class CheckpointFile implements CheckpointPublisher {
  constructor(private readonly file: string) {}

  async publish(checkpoint: SignedCheckpoint): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    await appendFile(this.file, `${JSON.stringify(checkpointJson(checkpoint))}\n`, { mode: 0o644 });
  }
}

/** No file configured: checkpoints are published through the operator route only. */
export const noCheckpointFile: CheckpointPublisher = { publish: async () => undefined };
