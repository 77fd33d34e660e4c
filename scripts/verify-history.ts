/**
 * Walks the log against its hash chain and its signed checkpoints:
 *   npm run verify-history [-- --checkpoints FILE] [--no-blobs] [--json]
 * Uses the same configuration as `npm start` (DATABASE_URL, or the embedded PostgreSQL under
 * DATA_DIR, shared with a running service; EVENTSTORE_URL for events in EventStoreDB).
 * --checkpoints FILE: checkpoints kept outside the database (HISTORY_CHECKPOINT_FILE, or the
 * operator route's answer saved), compared with the database's and with the log.
 * --no-blobs: do not read the blobs events name. --json: the whole report as JSON.
 * Exit status: 0 when nothing differs, 1 when something does, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { loadConfig } from '../src/infrastructure/config.js';
import { createLogger } from '../src/infrastructure/logger.js';
import { openHistoryVerification } from '../src/composition/historyTools.js';
import type { HistoryVerificationReport } from '../src/application/history/historyVerification.js';
import { parseCheckpoints } from '../src/application/history/checkpointJson.js';
import type { SignedCheckpoint } from '../src/application/ports/historyChain.js';

interface Options {
  checkpointsFile: string | null;
  blobs: boolean;
  json: boolean;
}

function options(args: string[]): Options {
  const result: Options = { checkpointsFile: null, blobs: true, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--checkpoints' && args[i + 1]) result.checkpointsFile = args[++i]!;
    else if (arg === '--no-blobs') result.blobs = false;
    else if (arg === '--json') result.json = true;
    else {
      console.error('usage: npm run verify-history -- [--checkpoints FILE] [--no-blobs] [--json]');
      process.exit(2);
    }
  }
  return result;
}

async function main() {
  const opts = options(process.argv.slice(2));
  let external: SignedCheckpoint[] = [];
  if (opts.checkpointsFile) {
    try {
      external = parseCheckpoints(await readFile(opts.checkpointsFile, 'utf8'));
    } catch (error) {
      console.error(`${opts.checkpointsFile}: ${(error as Error).message}`);
      process.exit(2);
    }
  }
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const { verification, close } = await openHistoryVerification(config, logger);
  try {
    const report = await verification.verify({ external, blobs: opts.blobs });
    console.log(opts.json ? JSON.stringify(report, null, 2) : describe(report, opts.checkpointsFile));
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await close();
  }
}

function describe(report: HistoryVerificationReport, file: string | null): string {
  const lines = [
    `${report.events_checked} events and ${report.links_checked} chain links checked, chained through position ${report.chained_through ?? '(nothing)'} (log head ${report.log_head ?? '(empty)'}), ` +
      `${report.checkpoints_checked} checkpoints${file ? ` and ${report.external_checkpoints_checked} from ${file}` : ''}, ${report.blobs_checked} blobs, in ${(report.duration_ms / 1000).toFixed(1)} s`,
  ];
  if (report.unchained_events > 0)
    lines.push(`${report.unchained_events} events after the chain's head are not chained yet`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  if (report.ok) {
    lines.push('OK: the log is as chained and as every checkpoint signed it');
    return lines.join('\n');
  }
  const first = report.first_problem!;
  lines.push(`NOT OK: the first difference is at position ${first.position}: ${first.kind}`);
  for (const p of report.problems) {
    const where = p.to_position ? `positions ${p.position}–${p.to_position} (${p.count})` : `position ${p.position}`;
    lines.push(`  ${where}: ${p.kind}: ${p.detail}${p.event_id ? ` [event ${p.event_id}]` : ''}`);
  }
  if (report.problems_total > report.problems.length)
    lines.push(`  … and ${report.problems_total - report.problems.length} more (--json lists the first 100)`);
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
