import { XmlInputError } from './errors.js';
import { NS } from '../xml/xmlNames.js';
import type { XNode } from '../xml/xmlTree.js';

/** A UBL Invoice or CreditNote as a tree: parsed at the edge (infrastructure/xml) or built by the UBL writer. */
export interface UblTree {
  root: XNode;
  kind: 'Invoice' | 'CreditNote';
}

/** The tree of a UBL Invoice or CreditNote, recognised by its root's name and namespace (else XmlInputError). */
export function ublTreeOf(root: XNode): UblTree {
  if (root.local === 'Invoice' && root.ns === NS.invoice) return { root, kind: 'Invoice' };
  if (root.local === 'CreditNote' && root.ns === NS.creditNote) return { root, kind: 'CreditNote' };
  throw new XmlInputError(`root element must be a UBL Invoice or CreditNote, got {${root.ns}}${root.local}`);
}
