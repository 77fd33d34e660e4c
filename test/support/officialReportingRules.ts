import { startHarness, type Harness } from './phiveHarness.js';

/**
 * The official OpenPeppol Reporting artefacts (TSR 1.0.5 and EUSR 1.1.5 Schematron as XSLT, their
 * XSDs), run by the phive harness (phiveHarness.ts) from the phive-rules-peppol jar: what our reports
 * are checked against. The files are data read at run time; nothing of them is copied.
 */
const ARTEFACTS = {
  xsd: {
    tsr: 'external/schemas/peppol-transaction-statistics-reporting-1.0.1.xsd',
    eusr: 'external/schemas/peppol-end-user-statistics-reporting-1.1.xsd',
  },
  xslt: {
    tsrsch: 'external/schematron/reporting/tsr/1.0.5/xslt/peppol-transaction-statistics-reporting-1.0.5.xslt',
    eusrsch: 'external/schematron/reporting/eusr/1.1.5/xslt/peppol-end-user-statistics-reporting-1.1.5.xslt',
  },
};

export interface OfficialVerdict {
  /** XSD errors (message texts). */
  schema: string[];
  /** Schematron failed asserts: `id (flag)`. */
  rules: string[];
}

export class OfficialReportingRules {
  private constructor(private readonly harness: Harness) {}

  static async start(): Promise<OfficialReportingRules> {
    return new OfficialReportingRules(await startHarness(ARTEFACTS));
  }

  /** The official verdict on a TSR or an EUSR document: XSD errors and failed Schematron asserts. */
  check(report: 'tsr' | 'eusr', xml: string): Promise<OfficialVerdict> {
    return this.harness.withFiles([xml], async ([file]) => {
      const [schema, rules] = await Promise.all([
        this.harness.ask(report, file!),
        this.harness.ask(`${report}sch`, file!),
      ]);
      for (const a of [schema, rules]) if (a.failure) throw new Error(`${a.name}: ${a.failure}`);
      return {
        schema: (schema.errors ?? []).map((e) => `${e.line}: ${e.message}`),
        rules: (rules.asserts ?? []).map((a) => `${a.id} (${a.flag})`),
      };
    });
  }

  close(): Promise<void> {
    return this.harness.stop();
  }
}
