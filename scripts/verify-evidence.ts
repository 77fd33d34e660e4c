/**
 * Checks a document's evidence bundle (GET /api/documents/{id}/evidence) offline: no service, no
 * database, nothing but the file.
 *   npm run verify-evidence -- FILE.zip [--trust KEY_ID]... [--json]
 * --trust KEY_ID: the checkpoint must be signed by one of these keys (the `signing_key_id` that
 * GET /api/operator/history/checkpoints answers); without it any key whose signature holds is taken,
 * and the key id is printed to compare with the one you know.
 * Exit status: 0 when everything holds, 1 when something does not (each problem names its part),
 * 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { verifyBundle } from '../src/application/evidence/verifyBundle.js';
import { transportEvidenceChecks } from '../src/infrastructure/evidenceChecks.js';

function usage(): never {
  console.error('usage: npm run verify-evidence -- FILE.zip [--trust KEY_ID]... [--json]');
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  let file: string | null = null;
  let json = false;
  const trusted = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--trust' && args[i + 1]) trusted.add(args[++i]!);
    else if (!arg.startsWith('--') && file === null) file = arg;
    else usage();
  }
  if (!file) usage();
  const result = verifyBundle(await readFile(file), transportEvidenceChecks, trusted.size > 0 ? trusted : undefined);
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(
      `document ${result.document_id ?? '?'}: ${result.files} files, ${result.events} events, ` +
        result.checkpoints.map((c) => `checkpoint at position ${c.position} signed by key ${c.key_id}`).join(', '),
    );
    if (result.ok)
      console.log(
        'OK: every file, the chain segment, the checkpoint signature, the AS4 receipts and the e-mails sent hold',
      );
    else {
      console.log(`NOT OK: ${result.problems.length} problem(s)`);
      for (const p of result.problems) console.log(`  ${p.part}${p.path ? ` (${p.path})` : ''}: ${p.detail}`);
    }
  }
  process.exit(result.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
