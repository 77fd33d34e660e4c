import fs from 'node:fs';
import path from 'node:path';
import { sharedDir } from '../domain/document/sharedDir.js';
import { readMultipartRelated, splitMimeEntity } from '../../src/infrastructure/as4/mimeMultipart.js';

/** The Peppol golden vectors (../shared/peppol-vectors, see its README): read in place, never copied into the repository. */
export const vectorsDir = (): string => path.join(sharedDir(), 'peppol-vectors');
export const phase4Dir = (): string => path.join(vectorsDir(), 'phase4');
export const capturesDir = (): string => path.join(phase4Dir(), 'as4-captures');

/**
 * A mocha `before` hook body: skips the suite with a visible message when the vectors are absent,
 * and fails it when CI=true, where they must be present.
 */
export function requireVectors(
  context: Mocha.Context,
  probe = path.join(capturesDir(), 'signature-expectations.tsv'),
): void {
  if (fs.existsSync(probe)) return;
  if (process.env.CI === 'true') throw new Error(`Peppol vectors missing at ${probe} (required when CI=true)`);
  console.log(`\n  ⚠ SKIPPED: Peppol golden vectors not found at ${probe} (set SHARED_DIR)\n`);
  context.skip();
}

export interface SignatureExpectation {
  file: string;
  signerSubject: string;
  signerValid: string;
  signerCaFile: string;
  prefixList: string;
  xmlRefs: string;
  cidRefs: string;
  conformant: string;
  asShipped: string;
  withFix: string;
}

export function signatureExpectations(): SignatureExpectation[] {
  return fs
    .readFileSync(path.join(capturesDir(), 'signature-expectations.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t'))
    .map((c) => ({
      file: c[0]!,
      signerSubject: c[2]!,
      signerValid: c[3]!,
      signerCaFile: c[4]!,
      prefixList: c[5]!,
      xmlRefs: c[6]!,
      cidRefs: c[7]!,
      conformant: c[8]!,
      asShipped: c[9]!,
      withFix: c[10]!,
    }));
}

/**
 * The SOAP envelope bytes of a capture: the root part of a MIME dump (.as4out), the body after
 * the HTTP headers (.as4in), or the file from its XML declaration on (a licence comment precedes
 * it in from-holodeck-1.xml).
 */
export function captureSoap(file: string): Buffer {
  const raw = fs.readFileSync(path.join(capturesDir(), file));
  if (file.endsWith('.as4out')) {
    const { headers, body } = splitMimeEntity(raw);
    return readMultipartRelated(headers['content-type']!, body).root.body;
  }
  if (file.endsWith('.as4in')) return splitMimeEntity(raw).body;
  const declaration = raw.indexOf('<?xml');
  return declaration > 0 ? raw.subarray(declaration) : raw;
}
