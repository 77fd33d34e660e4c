import type { AllowanceCharge, Document } from '../invoice/documentModel.js';
import { isCreditNote } from '../invoice/documentModel.js';
import type { FieldProblem } from '../invoice/documentTotals.js';
import { compareVersions, LATEST_RULE_SET, type RuleSet } from '../../validation/index.js';

/**
 * The spec's JSON validation minimum (what a document needs before it can become Peppol UBL):
 * vendor and customer name, tax id and address; invoice id, date and currency; at least one item
 * with description, quantity, unit price and tax rate. Under the rule sets that have BR-CO-25 (EN 16931
 * UBL before 1.3.16), invoices also need a due date or payment terms when something is payable.
 * Codec errors (422) are separate: these are content problems reported in a validation result.
 */
export const missingRequiredFields = (doc: Document, ruleSet: RuleSet = LATEST_RULE_SET): FieldProblem[] => {
  const problems: FieldProblem[] = [];
  // `rule`: the EN 16931 rule the missing field breaks, so that the rule engine's report of it is
  // not listed a second time (documentCheck.ts), and the one message names both.
  const need = (field: string, value: unknown, what: string, rule?: string) => {
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
      problems.push({ field, type: 'missing', message: `${what} is required`, ...(rule ? { rule_id: rule } : {}) });
    }
  };
  need('vendor_name', doc.vendor_name, 'vendor name', 'BR-06');
  need('vendor_tax_id', doc.vendor_tax_id, 'vendor tax id');
  need('vendor_address', doc.vendor_address, 'vendor address', 'BR-08');
  need('customer_name', doc.customer_name, 'customer name', 'BR-07');
  need('customer_tax_id', doc.customer_tax_id ?? doc.customer_peppol_id, 'customer tax id (or Peppol id)');
  need('customer_address', doc.customer_address ?? doc.billing_address, 'customer address', 'BR-10');
  need('invoice_id', doc.invoice_id, 'invoice id', 'BR-02');
  need('invoice_date', doc.invoice_date, 'invoice date', 'BR-03');
  need('currency', doc.currency, 'currency', 'BR-05');
  if (doc.items.length === 0)
    problems.push({ field: 'items', type: 'missing', rule_id: 'BR-16', message: 'at least one item is required' });
  doc.items.forEach((item, i) => {
    need(`items[${i}].description`, item.description, 'description', 'BR-25');
    need(`items[${i}].quantity`, item.quantity, 'quantity', 'BR-22');
    need(`items[${i}].unit_price`, item.unit_price, 'unit price', 'BR-26');
    if (item.tax_code !== 'O') need(`items[${i}].tax_rate`, item.tax_rate, 'tax rate');
  });
  // BR-33/BR-38 (document level), BR-42/BR-44 (line level): why the amount is allowed or charged is
  // the seller's to say; no "Discount" or "Charge" is written for them.
  const reasonOf = (list: AllowanceCharge[], field: string, rule: string) =>
    list.forEach((a, i) => {
      if ((a.reason ?? '').trim() === '' && (a.reason_code ?? '').trim() === '') {
        problems.push({
          field: `${field}[${i}].reason`,
          type: 'missing',
          rule_id: rule,
          message: 'a reason (reason text or reason_code) is required',
        });
      }
    });
  reasonOf(doc.allowances, 'allowances', 'BR-33');
  reasonOf(doc.charges, 'charges', 'BR-38');
  doc.items.forEach((item, i) => {
    reasonOf(item.allowances, `items[${i}].allowances`, 'BR-42');
    reasonOf(item.charges, `items[${i}].charges`, 'BR-44');
  });
  const dueDateRequired = compareVersions(ruleSet.cen, '1.3.16') < 0;
  if (
    dueDateRequired &&
    !isCreditNote(doc.document_type) &&
    doc.due_date === null &&
    (doc.payment_term ?? '').trim() === ''
  ) {
    problems.push({
      field: 'due_date',
      type: 'missing',
      rule_id: 'BR-CO-25',
      message: 'an invoice needs a due date or payment terms',
    });
  }
  return problems;
};
