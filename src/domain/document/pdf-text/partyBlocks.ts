import { emailsIn, peppolIdIn, vatNumbersIn } from './identifiers.js';
import type { FoundVatNumber } from './identifiers.js';
import { COLUMN_LABELS, DOCUMENT_TITLES, FIELD_LABELS, PARTY_DETAIL_LABELS, PARTY_HEADINGS } from './labels.js';
import type { PartyRole } from './labels.js';
import type { Cell, Row } from './textLayout.js';

/*
 * Party blocks: a heading ("Seller", "Bill to:", "Factuur aan") and the left-aligned lines under
 * it; or, on documents without headings, the address blocks of the first page (a name, then lines
 * one of which holds a postal code). The first line is the name, the lines up to the first
 * labelled one the address, then the identifiers.
 */

export interface PartyBlock {
  role: PartyRole | null;
  name: string | null;
  addressLines: string[];
  vatNumbers: FoundVatNumber[];
  companyId: string | null;
  peppolId: string | null;
  customerId: string | null;
  contact: string | null;
  email: string | null;
  page: number;
  x: number;
  top: number;
}

interface Line {
  text: string;
  row: Row;
  cell: Cell;
}

const ALIGN = 4;

const isHeading = (text: string): boolean => PARTY_HEADINGS.some(([, re]) => re.test(text));
/** The document's title ("FACTURE", "Credit note"): never a party's name. */
const isTitle = (text: string): boolean =>
  text.length <= 30 && /^[\p{L}\s'-]+$/u.test(text) && DOCUMENT_TITLES.some(([, re]) => re.test(text));
const isFieldLabel = (text: string): boolean => FIELD_LABELS.some(([, re]) => re.test(text));
const isColumnHeading = (row: Row): boolean =>
  row.cells.filter((c) => COLUMN_LABELS.some(([, re]) => re.test(c.text))).length >= 3;

/** The lines under (and including) a starting cell that are aligned with it and close together. */
function blockLines(rows: Row[], start: number, cell: Cell, includeStart: boolean): Line[] {
  const lines: Line[] = includeStart ? [{ text: cell.text, row: rows[start]!, cell }] : [];
  let lastY = rows[start]!.y;
  const size = cell.size || 9;
  for (let i = start + 1; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.page !== rows[start]!.page) break;
    if (row.y - lastY > 2.6 * size) break;
    if (isColumnHeading(row)) break;
    const aligned = row.cells.find((c) => Math.abs(c.x - cell.x) <= ALIGN);
    // Rows of other columns (the facts beside the seller, the other party) interleave: skip them.
    if (!aligned) continue;
    if (isHeading(aligned.text) || isTitle(aligned.text)) break;
    lines.push({ text: aligned.text, row, cell: aligned });
    lastY = row.y;
  }
  return lines;
}

function detailOf(text: string): { kind: (typeof PARTY_DETAIL_LABELS)[number][0]; value: string } | null {
  for (const [kind, re] of PARTY_DETAIL_LABELS) {
    const m = re.exec(text);
    if (m) return { kind, value: text.slice(m[0].length).trim() };
  }
  return null;
}

function parseBlock(
  role: PartyRole | null,
  firstLine: string | null,
  lines: Line[],
  at: { page: number; x: number; top: number },
): PartyBlock {
  const block: PartyBlock = {
    role,
    name: null,
    addressLines: [],
    vatNumbers: [],
    companyId: null,
    peppolId: null,
    customerId: null,
    contact: null,
    email: null,
    ...at,
  };
  const all = firstLine ? [firstLine, ...lines.map((l) => l.text)] : lines.map((l) => l.text);
  let inDetails = false;
  for (const text of all) {
    const detail = detailOf(text);
    const vats = vatNumbersIn(text);
    for (const v of vats) if (!block.vatNumbers.some((x) => x.value === v.value)) block.vatNumbers.push(v);
    const email = emailsIn(text)[0];
    if (email && !block.email) block.email = email;
    if (detail) {
      inDetails = true;
      switch (detail.kind) {
        case 'companyId':
          block.companyId ??= detail.value.replace(/\s+/g, ' ') || null;
          break;
        case 'peppolId':
          block.peppolId ??= peppolIdIn(text);
          break;
        case 'customerId':
          block.customerId ??= detail.value || null;
          break;
        case 'contact':
          block.contact ??= detail.value || null;
          break;
        case 'vatNumber':
        case 'email':
        case 'ignored':
          break;
      }
      continue;
    }
    if (vats.length > 0 || email || isFieldLabel(text)) {
      inDetails = true;
      continue;
    }
    if (inDetails) continue;
    if (block.name === null) block.name = text;
    else block.addressLines.push(text);
  }
  return block;
}

/** Blocks introduced by a heading. */
export function headedBlocks(rows: Row[]): PartyBlock[] {
  const blocks: PartyBlock[] = [];
  rows.forEach((row, i) => {
    for (const cell of row.cells) {
      for (const [role, re] of PARTY_HEADINGS) {
        const m = re.exec(cell.text);
        if (!m) continue;
        if (blocks.some((b) => b.role === role)) break;
        const firstLine = m[1]?.trim() || null;
        const lines = blockLines(rows, i, cell, false);
        if (!firstLine && lines.length === 0) break;
        blocks.push(parseBlock(role, firstLine, lines, { page: row.page, x: cell.x, top: row.y }));
        break;
      }
    }
  });
  return blocks;
}

const POSTAL_LINE =
  /(?:^|\s|-)(?:\d{4}\s?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}|\d{4,5})(?:\s+\p{L}|$)|\p{L}\s+\d{5}$/u;

/**
 * Address-like blocks of the first page that no heading introduced: a first line that is not a
 * label, at most 8 lines, one of them with a postal code. Sorted top to bottom.
 */
export function unheadedBlocks(rows: Row[], used: PartyBlock[], before: number): PartyBlock[] {
  const blocks: PartyBlock[] = [];
  const taken = new Set<Cell>();
  const firstPage = rows.filter((r) => r.page === 0 && r.y < before);
  firstPage.forEach((row) => {
    for (const cell of row.cells) {
      if (
        taken.has(cell) ||
        isHeading(cell.text) ||
        isTitle(cell.text) ||
        isFieldLabel(cell.text) ||
        detailOf(cell.text)
      )
        continue;
      if (used.some((b) => b.page === 0 && Math.abs(b.x - cell.x) <= ALIGN && row.y >= b.top && row.y <= b.top + 120))
        continue;
      const index = rows.indexOf(row);
      const lines = blockLines(rows, index, cell, true).filter((l) => l.row.y < before);
      for (const l of lines) taken.add(l.cell);
      if (lines.length < 2 || lines.length > 9) continue;
      if (!lines.slice(1).some((l) => POSTAL_LINE.test(l.text))) continue;
      blocks.push(parseBlock(null, null, lines, { page: 0, x: cell.x, top: row.y }));
    }
  });
  return blocks.sort((a, b) => a.top - b.top || a.x - b.x);
}
