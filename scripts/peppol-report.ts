/**
 * Prints this access point's OpenPeppol reports (TSR, EUSR) of a month, from a running instance's
 * operator API (so it works wherever the service runs, whatever its storage profile):
 *   npm run peppol-report -- --month 2026-10 [--report tsr|eusr] [--as-of <ISO time>] [--url <base URL>]
 * OPERATOR_KEY is the operator key; the base URL defaults to SERVICE_URL, else http://localhost:$PORT
 * (8080). Without --report it prints the TSR, a blank line and the EUSR, and the digests and the
 * as-of time on stderr; with it, that report's XML alone. Exit 2 on usage, 1 when the API refuses.
 */
const USAGE = 'usage: npm run peppol-report -- --month YYYY-MM [--report tsr|eusr] [--as-of ISO] [--url URL]';

export interface ReportArgs {
  month: string;
  report?: string;
  asOf?: string;
  url: string;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ReportArgs | null {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const month = value('--month');
  if (!month) return null;
  return {
    month,
    report: value('--report'),
    asOf: value('--as-of'),
    url: value('--url') ?? env.SERVICE_URL ?? `http://localhost:${env.PORT ?? '8080'}`,
  };
}

export async function peppolReport(
  args: ReportArgs,
  operatorKey: string,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const query = new URLSearchParams({ month: args.month });
  if (args.asOf) query.set('as_of', args.asOf);
  if (args.report) query.set('report', args.report);
  const res = await fetch(`${args.url.replace(/\/$/, '')}/api/operator/reports/peppol?${query}`, {
    headers: { Authorization: `Bearer ${operatorKey}` },
  });
  const text = await res.text();
  if (!res.ok) {
    err(`${res.status}: ${text}\n`);
    return 1;
  }
  if (args.report) {
    out(text);
    return 0;
  }
  const body = JSON.parse(text) as {
    tsr: string;
    eusr: string;
    as_of: string;
    tsr_sha256: string;
    eusr_sha256: string;
  };
  out(`${body.tsr}\n${body.eusr}`);
  err(`as of ${body.as_of}; TSR sha256 ${body.tsr_sha256}; EUSR sha256 ${body.eusr_sha256}\n`);
  return 0;
}

async function main() {
  const args = parseArgs(process.argv.slice(2), process.env);
  const key = process.env.OPERATOR_KEY;
  if (!args || !key) {
    console.error(key ? USAGE : `OPERATOR_KEY is not set\n${USAGE}`);
    process.exit(2);
  }
  process.exitCode = await peppolReport(
    args,
    key,
    (t) => process.stdout.write(t),
    (t) => process.stderr.write(t),
  );
}

if (process.argv[1]?.endsWith('peppol-report.js')) void main();
