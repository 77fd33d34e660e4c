import { describeWithHarness, startHarness, type HarnessAnswer } from './phiveHarness.js';

/**
 * The official Peppol and CEN Schematron (XSLT) of a release, run by the phive harness
 * (phiveHarness.ts): one Java process per release, many documents pipelined through it.
 */
export const describeWithOfficialRules = describeWithHarness;

/** Releases of the official artefacts (phive-rules-peppol folders; RuleSet.release names its own). */
export type OfficialRelease = '2025.5' | '2026.5';

/** Class-path resources of each release's Schematron, by the layer names our validator uses. */
export function officialArtefacts(release: OfficialRelease): Record<'cen' | 'peppol', string> {
  const base = `external/schematron/openpeppol/${release}/xslt`;
  return { cen: `${base}/CEN-EN16931-UBL.xslt`, peppol: `${base}/PEPPOL-EN16931-UBL.xslt` };
}

/** What one official Schematron reported: rule ids per flag (sorted, distinct) and how often each fired. */
export interface OfficialLayerVerdict {
  fatal: string[];
  warning: string[];
  counts: Record<string, number>;
  /** Set when this Schematron stopped with an error on the document (no verdict). */
  failure?: string;
}

export interface OfficialVerdict {
  cen: OfficialLayerVerdict;
  peppol: OfficialLayerVerdict;
  /** Set when a Schematron could not judge the document (not well-formed, a dynamic error, …). */
  failure?: string;
}

export interface OfficialRules {
  release: OfficialRelease;
  /** The official verdict on each document, in order (documents are written to a temp folder). */
  check(documents: readonly (string | Uint8Array)[]): Promise<OfficialVerdict[]>;
  /** The same on files already on disk (absolute paths). */
  checkFiles(files: readonly string[]): Promise<OfficialVerdict[]>;
  stop(): Promise<void>;
}

function layerVerdict(answer: HarnessAnswer): OfficialLayerVerdict {
  const fatal = new Set<string>();
  const warning = new Set<string>();
  const counts: Record<string, number> = {};
  for (const a of answer.asserts ?? []) {
    (a.flag === 'fatal' || a.flag === 'error' ? fatal : warning).add(a.id);
    counts[a.id] = (counts[a.id] ?? 0) + 1;
  }
  return {
    fatal: [...fatal].sort(),
    warning: [...warning].sort(),
    counts,
    ...(answer.failure !== undefined ? { failure: answer.failure } : {}),
  };
}

/** Starts the harness for `release` (compiles both Schematrons once; ~2 s). */
export async function startOfficialRules(options: { release: OfficialRelease }): Promise<OfficialRules> {
  const harness = await startHarness({ xslt: officialArtefacts(options.release) });
  const checkFiles = async (files: readonly string[]): Promise<OfficialVerdict[]> => {
    const answers = await Promise.all(
      files.map((file) => Promise.all([harness.ask('cen', file), harness.ask('peppol', file)])),
    );
    return answers.map(([cen, peppol]) => {
      const failure = cen.failure ?? peppol.failure;
      return { cen: layerVerdict(cen), peppol: layerVerdict(peppol), ...(failure ? { failure } : {}) };
    });
  };
  return {
    release: options.release,
    checkFiles,
    check: (documents) => harness.withFiles(documents, checkFiles),
    stop: () => harness.stop(),
  };
}
