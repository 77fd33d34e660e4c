import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The official OpenPeppol Reporting artefacts (TSR 1.0.5 and EUSR 1.1.5 Schematron as XSLT, their
 * XSDs), run by the phive harness (test/interop/phive) from the phive-rules-peppol jar: what our
 * reports are checked against. The files are data read at run time; nothing of them is copied.
 */

const HARNESS = resolve('test/interop/phive/target/phive-harness.jar');
const ARTEFACTS = [
  '--xsd',
  'tsr=external/schemas/peppol-transaction-statistics-reporting-1.0.1.xsd',
  '--xslt',
  'tsrsch=external/schematron/reporting/tsr/1.0.5/xslt/peppol-transaction-statistics-reporting-1.0.5.xslt',
  '--xsd',
  'eusr=external/schemas/peppol-end-user-statistics-reporting-1.1.xsd',
  '--xslt',
  'eusrsch=external/schematron/reporting/eusr/1.1.5/xslt/peppol-end-user-statistics-reporting-1.1.5.xslt',
];

export interface OfficialVerdict {
  /** XSD errors (message texts). */
  schema: string[];
  /** Schematron failed asserts: `id (flag)`. */
  rules: string[];
}

interface Answer {
  name: string;
  file: string;
  asserts?: Array<{ id: string; flag: string; location: string }>;
  errors?: Array<{ line: number; message: string }>;
  failure?: string;
}

export class OfficialReportingRules {
  private readonly waiting: Array<(answer: Answer) => void> = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'peppol-report-'));
  private sequence = 0;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"ready"')) return;
      this.waiting.shift()?.(JSON.parse(line) as Answer);
    });
  }

  static async start(): Promise<OfficialReportingRules> {
    const child = spawn('java', ['-jar', HARNESS, ...ARTEFACTS], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((ready, fail) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', (line) => {
        lines.close();
        return line.includes('"ready":true') ? ready() : fail(new Error(`harness: ${line} ${stderr}`));
      });
      child.once('exit', (code) => fail(new Error(`harness exited ${code}: ${stderr}`)));
    });
    return new OfficialReportingRules(child);
  }

  private ask(name: string, xml: string): Promise<Answer> {
    const file = join(this.dir, `report-${++this.sequence}.xml`);
    writeFileSync(file, xml);
    return new Promise((answer) => {
      this.waiting.push(answer);
      this.child.stdin.write(`${name} ${file}\n`);
    });
  }

  /** The official verdict on a TSR or an EUSR document: XSD errors and failed Schematron asserts. */
  async check(report: 'tsr' | 'eusr', xml: string): Promise<OfficialVerdict> {
    const [schema, rules] = await Promise.all([this.ask(report, xml), this.ask(`${report}sch`, xml)]);
    for (const a of [schema, rules]) if (a.failure) throw new Error(`${a.name}: ${a.failure}`);
    return {
      schema: (schema.errors ?? []).map((e) => `${e.line}: ${e.message}`),
      rules: (rules.asserts ?? []).map((a) => `${a.id} (${a.flag})`),
    };
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
