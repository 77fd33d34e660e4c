import { Worker } from 'node:worker_threads';
import type {
  ChainRange,
  ChainRangeWalker,
  ChainWalkReport,
  RangeWalkOptions,
} from '../../application/ports/historyChain.js';
import type { BlobStoreConfig } from '../blobs/blobStoreConfig.js';

/** Where a worker finds the log, the chain and the blobs: connections of its own. */
export interface RangeWalkerConnection {
  databaseUrl: string;
  eventStoreUrl: string | null;
  blobStore: BlobStoreConfig;
}

export interface RangeWalkRequest {
  connection: RangeWalkerConnection;
  range: ChainRange;
  options: RangeWalkOptions;
}

export type RangeWalkAnswer = { ok: true; report: ChainWalkReport } | { ok: false; error: string };

const ENTRY = new URL('./rangeWalkWorker.js', import.meta.url);

/** Each range in a worker thread of its own, with its own database connections. */
export class WorkerRangeWalker implements ChainRangeWalker {
  constructor(
    private readonly connection: RangeWalkerConnection,
    readonly parallelism: number,
  ) {}

  walk(range: ChainRange, options: RangeWalkOptions): Promise<ChainWalkReport> {
    return new Promise((resolve, reject) => {
      const request: RangeWalkRequest = { connection: this.connection, range, options };
      const worker = new Worker(ENTRY, { workerData: request });
      let answered = false;
      worker.once('message', (answer: RangeWalkAnswer) => {
        answered = true;
        if (answer.ok) resolve(answer.report);
        else reject(new Error(`a verification worker failed: ${answer.error}`));
      });
      worker.once('error', (error) => {
        answered = true;
        reject(error);
      });
      worker.once('exit', (code) => {
        if (!answered) reject(new Error(`a verification worker stopped (exit code ${code}) without a report`));
      });
    });
  }
}
