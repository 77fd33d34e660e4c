import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  describeRequiring,
  startHelperServer,
  stopHelperServer,
  type HelperServer,
  type ServerTarget,
} from './helperServer.js';
import { repoRoot, TEST_PKI_PASSWORD, type TestAccessPoint } from './testPki.js';

/**
 * phase4, the reference Peppol AS4 implementation (Java), as an independent peer for our AS4 code:
 * the harness in test/interop/phase4 (`bash .ci/build-phase4` builds it; PHASE4_HARNESS_JAR points
 * elsewhere) runs a phase4 receiver and a phase4 sender with the test PKI. Without Java or the built
 * jar the suites are skipped with a warning, and fail under CI=true.
 */
export const PHASE4_HARNESS_JAR =
  process.env.PHASE4_HARNESS_JAR || path.join(repoRoot, 'test', 'interop', 'phase4', 'target', 'phase4-harness.jar');

export function phase4Target(): ServerTarget<{ kind: 'jar'; jar: string }> {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).error)
    return { kind: 'none', why: 'no java on the PATH (the phase4 harness needs Java 17+)' };
  if (!existsSync(PHASE4_HARNESS_JAR))
    return process.env.PHASE4_HARNESS_JAR
      ? { kind: 'none', why: `PHASE4_HARNESS_JAR=${PHASE4_HARNESS_JAR} does not exist` }
      : {
          kind: 'none',
          why: `the phase4 harness is not built at ${path.relative(process.cwd(), PHASE4_HARNESS_JAR)} (bash .ci/build-phase4 builds it; PHASE4_HARNESS_JAR points elsewhere)`,
        };
  return { kind: 'jar', jar: PHASE4_HARNESS_JAR };
}

/**
 * Registers the suite `what` when the phase4 harness can run and every file in `needs` (say, a
 * document from ../shared) is there.
 */
export function describeWithPhase4(what: string, body: (this: Mocha.Suite) => void, needs: string[] = []): void {
  const missing = needs.find((file) => !existsSync(file));
  const target = missing
    ? { kind: 'none' as const, why: `${missing} is missing (SHARED_DIR names the shared folder)` }
    : phase4Target();
  describeRequiring(what, 'the phase4 harness (Java)', target, () => describe(what, body));
}

/** The harness options naming an AP's keys and trust (the test PKI's files and password). */
function identity(ap: TestAccessPoint): string[] {
  return ['--keystore', ap.keystoreFile, '--truststore', ap.truststoreFile, '--password', TEST_PKI_PASSWORD];
}

export interface Phase4Receiver {
  /** http://127.0.0.1:PORT/as4 */
  url: string;
  server: HelperServer;
}

/**
 * A phase4 receiver on a free loopback port, as `ap`, storing each accepted message in `outDir`
 * as MESSAGE-ID.sbd.xml (the SBDH as it arrived) and MESSAGE-ID.json (what it was: ids, parties,
 * signing certificate). `serviced`: the only receiver participant ids it accepts (the others get
 * EBMS:0004 PEPPOL:NOT_SERVICED); all when left out.
 */
export async function startPhase4Receiver(options: {
  ap: TestAccessPoint;
  outDir: string;
  serviced?: string[];
}): Promise<Phase4Receiver> {
  const target = phase4Target();
  if (target.kind === 'none') throw new Error(target.why);
  const args = ['-jar', target.jar, 'receive', ...identity(options.ap), '--out', options.outDir, '--port', '0'];
  if (options.serviced) args.push('--serviced', options.serviced.join(','));
  const server = await startHelperServer({
    name: 'phase4 receiver',
    bin: 'java',
    args,
    urlPattern: /http:\/\/127\.0\.0\.1:\d+\/as4/,
    readyWithinMs: 60_000,
    onUnexpectedExit: () => undefined,
  });
  return { url: server.url, server };
}

export function stopPhase4Receiver(receiver: Phase4Receiver | null | undefined): Promise<void> {
  return stopHelperServer(receiver?.server ?? null);
}

/** One sent message as the phase4 sender reports it. */
export interface Phase4SendReport {
  ok: boolean;
  /** phase4's outcome: success, as4-error-msg-received, transport-error, invalid-parameters, … */
  result: string;
  messageId: string;
  millis: number;
  signalMessageId?: string;
  refToMessageId?: string;
  receipt?: boolean;
  /** verified: the receipt's non-repudiation references match the digests of what was sent. */
  receiptCheck?: 'verified' | 'failed' | 'not-applicable' | 'not-checked';
  receiptProblems?: string;
  errors?: {
    code: string;
    severity: string;
    shortDescription: string;
    description: string | null;
    detail: string | null;
  }[];
  exception?: string;
}

export interface Phase4SendOptions {
  /** The sending AP (its key signs, its seat id is the From party). */
  ap: TestAccessPoint;
  endpoint: string;
  /** The receiving AP's certificate: the message is encrypted for it. */
  receiverCertificateFile: string;
  /** A UBL document (then from/to/doctype/process are required), or an SBDH (sent byte for byte; they override its values). */
  payloadFile: string;
  from?: string;
  to?: string;
  doctype?: string;
  process?: string;
  countryC1?: string;
  /** The AS4 MessageId (a new one per message when left out): the same one twice is a sender's retry. */
  messageId?: string;
  /** For a UBL payload: the SBDH phase4 writes asks for MLS (MLS_TO, MLS_TYPE). */
  mlsTo?: string;
  mlsType?: 'ALWAYS_SEND' | 'FAILURE_ONLY';
  count?: number;
  concurrency?: number;
}

/** The harness's send options for `options`, as --name value pairs. */
function sendArgs(options: Phase4SendOptions): string[] {
  const args = [
    ...identity(options.ap),
    '--endpoint',
    options.endpoint,
    '--receiver-cert',
    options.receiverCertificateFile,
    '--payload',
    options.payloadFile,
  ];
  const optional: [string, string | number | undefined][] = [
    ['from', options.from],
    ['to', options.to],
    ['doctype', options.doctype],
    ['process', options.process],
    ['country-c1', options.countryC1],
    ['message-id', options.messageId],
    ['mls-to', options.mlsTo],
    ['mls-type', options.mlsType],
    ['count', options.count],
    ['concurrency', options.concurrency],
  ];
  for (const [name, value] of optional) if (value !== undefined) args.push(`--${name}`, String(value));
  return args;
}

export interface Phase4SendService {
  /** Sends one message (count and concurrency are ignored) and resolves with its report. */
  send(options: Omit<Phase4SendOptions, 'count' | 'concurrency'>): Promise<Phase4SendReport>;
  stop(): Promise<void>;
}

/**
 * The phase4 sender kept running for many sends: a JVM with phase4 takes seconds to start, a
 * send a fraction of one. Sends are answered in the order they were asked.
 */
export async function startPhase4SendService(): Promise<Phase4SendService> {
  const target = phase4Target();
  if (target.kind === 'none') throw new Error(target.why);
  const child: ChildProcess = spawn('java', ['-jar', target.jar, 'send-service'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  let ready: (() => void) | null = null;
  let exited: Error | null = null;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') ready?.();
    else if (line.startsWith('{')) waiting.shift()?.resolve(line);
  });
  child.once('exit', (code, signal) => {
    exited = new Error(`phase4 send service exited (${signal ?? code}):\n${stderr.join('').slice(-4000)}`);
    for (const w of waiting.splice(0)) w.reject(exited);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('phase4 send service did not start within 60 s')), 60_000);
    ready = () => {
      clearTimeout(timer);
      resolve();
    };
    child.once('exit', () => {
      clearTimeout(timer);
      reject(exited!);
    });
  });
  return {
    send(options) {
      if (exited) return Promise.reject(exited);
      const args = sendArgs(options);
      if (args.some((a) => /[\t\n]/.test(a)))
        return Promise.reject(new Error('send options may not contain tabs or line breaks'));
      return new Promise<string>((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin!.write(`${args.join('\t')}\n`);
      }).then((line) => JSON.parse(line) as Phase4SendReport);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.stdin!.end();
      await done;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs the phase4 sender and resolves with its report lines (and its summary when count > 1);
 * it exits 0 only when every message got a verified receipt.
 */
export async function runPhase4Sender(options: Phase4SendOptions): Promise<{
  exitCode: number;
  reports: Phase4SendReport[];
  summary?: { count: number; ok: number; seconds: number; perSecond: number };
  stderr: string;
}> {
  const target = phase4Target();
  if (target.kind === 'none') throw new Error(target.why);
  const args = ['-jar', target.jar, 'send', ...sendArgs(options)];
  const { exitCode, stdout, stderr } = await new Promise<{ exitCode: number; stdout: string; stderr: string }>(
    (resolve, reject) => {
      execFile('java', args, { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          reject(new Error(`phase4 sender failed to run: ${error.message}\n${stderr}`));
        else resolve({ exitCode: error ? (error.code as number) : 0, stdout, stderr });
      });
    },
  );
  const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
  const parsed = lines.map(
    (line) =>
      JSON.parse(line) as
        Phase4SendReport | { summary: { count: number; ok: number; seconds: number; perSecond: number } },
  );
  const summary = parsed.find(
    (entry): entry is { summary: { count: number; ok: number; seconds: number; perSecond: number } } =>
      'summary' in entry,
  )?.summary;
  const reports = parsed.filter((entry): entry is Phase4SendReport => !('summary' in entry));
  if (reports.length === 0)
    throw new Error(`phase4 sender reported nothing (exit ${exitCode}):\n${stderr.slice(-4000)}`);
  return { exitCode, reports, summary, stderr };
}
