import { readFile } from 'node:fs/promises';
import { DOMParser } from '@xmldom/xmldom';
import { describeWithHarness, startHarness, type HarnessAnswer } from './phiveHarness.js';

/**
 * The official Peppol and CEN Schematron (XSLT) of a release, run by the phive harness
 * (phiveHarness.ts): one Java process per release, many documents pipelined through it.
 */
export const describeWithOfficialRules = describeWithHarness;

/** Releases of the official artefacts (phive-rules-peppol folders; RuleSet.release names its own). */
export type OfficialRelease = '2025.5' | '2026.5';

/** The Peppol Schematron a document answers to: Billing, or (from 2026.5) the separate Self-Billing one. */
export type PeppolArtefact = 'peppol' | 'peppolSb';

/**
 * Class-path resources of each release's Schematron, by the layer names our validator uses, and
 * `peppolSb`, the Peppol Self-Billing Schematron, for the releases that ship one (2026.5; 2025.5 has none).
 */
export function officialArtefacts(release: OfficialRelease): Record<'cen' | 'peppol', string> & {
  peppolSb?: string;
} {
  const base = `external/schematron/openpeppol/${release}/xslt`;
  return {
    cen: `${base}/CEN-EN16931-UBL.xslt`,
    peppol: `${base}/PEPPOL-EN16931-UBL.xslt`,
    ...(release === '2025.5' ? {} : { peppolSb: `${base}/PEPPOL-EN16931-UBL-SB.xslt` }),
  };
}

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const SELF_BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';

/**
 * The document declares Peppol BIS Self-Billing: it has a CustomizationID and each one starts with the
 * self-billing specification identifier (spaces normalised). A document that cannot be read does not.
 */
export function declaresSelfBilling(xml: string): boolean {
  try {
    const root = new DOMParser({ errorHandler: () => {} }).parseFromString(xml, 'text/xml').documentElement;
    if (!root) return false;
    const ids: string[] = [];
    for (let c = root.firstChild; c; c = c.nextSibling)
      if (c.nodeType === 1 && (c as Element).localName === 'CustomizationID' && (c as Element).namespaceURI === CBC)
        ids.push((c.textContent ?? '').replace(/[ \t\r\n]+/g, ' ').trim());
    return ids.length > 0 && ids.every((id) => id.startsWith(SELF_BILLING));
  } catch {
    return false;
  }
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
  /** The verdict of the Peppol Schematron the document answers to (`peppolArtefact`). */
  peppol: OfficialLayerVerdict;
  peppolArtefact: PeppolArtefact;
  /** Set when a Schematron could not judge the document (not well-formed, a dynamic error, …). */
  failure?: string;
}

export interface OfficialRules {
  release: OfficialRelease;
  /**
   * The official verdict on each document, in order (documents are written to a temp folder). A
   * self-billing document (declaresSelfBilling) gets the release's self-billing Schematron when it
   * has one, the billing one otherwise.
   */
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

/** Starts the harness for `release` (compiles its Schematrons once; ~2 s). */
export async function startOfficialRules(options: { release: OfficialRelease }): Promise<OfficialRules> {
  const artefacts = officialArtefacts(options.release);
  const harness = await startHarness({ xslt: artefacts });
  const checkFiles = async (files: readonly string[]): Promise<OfficialVerdict[]> => {
    const answers = await Promise.all(
      files.map(async (file) => {
        const artefact: PeppolArtefact =
          artefacts.peppolSb && declaresSelfBilling(await readFile(file, 'utf8')) ? 'peppolSb' : 'peppol';
        const [cen, peppol] = await Promise.all([harness.ask('cen', file), harness.ask(artefact, file)]);
        return { cen, peppol, artefact };
      }),
    );
    return answers.map(({ cen, peppol, artefact }) => {
      const failure = cen.failure ?? peppol.failure;
      return {
        cen: layerVerdict(cen),
        peppol: layerVerdict(peppol),
        peppolArtefact: artefact,
        ...(failure ? { failure } : {}),
      };
    });
  };
  return {
    release: options.release,
    checkFiles,
    check: (documents) => harness.withFiles(documents, checkFiles),
    stop: () => harness.stop(),
  };
}
